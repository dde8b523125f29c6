// ... existing code ...

// Completed todos sink to the bottom; otherwise the original order is kept.
function sortTodos(todos) {
  return [...todos].sort((a, b) => Number(a.done) - Number(b.done));
}

export default function TodoList({ title, initialFilter }) {
  // ... existing code ...
  const visible = sortTodos(todos.filter(FILTERS[filter]));
  // ... existing code ...
