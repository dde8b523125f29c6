import { useCallback, useEffect, useState } from "react";
import PropTypes from "prop-types";
import TodoItem from "./TodoItem";
import { loadTodos, saveTodos } from "../storage";
import "./TodoList.css";

const FILTERS = {
  all: () => true,
  active: (todo) => !todo.done,
  completed: (todo) => todo.done,
};

function nextId(todos) {
  return todos.reduce((max, todo) => Math.max(max, todo.id), 0) + 1;
}

// Completed todos sink to the bottom; otherwise the original order is kept.
function sortTodos(todos) {
  return [...todos].sort((a, b) => Number(a.done) - Number(b.done));
}

export default function TodoList({ title, initialFilter }) {
  const [todos, setTodos] = useState(() => loadTodos());
  const [text, setText] = useState("");
  const [filter, setFilter] = useState(initialFilter);

  useEffect(() => {
    saveTodos(todos);
  }, [todos]);

  const addTodo = useCallback(
    (event) => {
      event.preventDefault();
      const trimmed = text.trim();
      if (!trimmed) return;
      setTodos((current) => [...current, { id: nextId(current), text: trimmed, done: false }]);
      setText("");
    },
    [text]
  );

  const toggleTodo = useCallback((id) => {
    setTodos((current) =>
      current.map((todo) => (todo.id === id ? { ...todo, done: !todo.done } : todo))
    );
  }, []);

  const removeTodo = useCallback((id) => {
    setTodos((current) => current.filter((todo) => todo.id !== id));
  }, []);

  const visible = sortTodos(todos.filter(FILTERS[filter]));
  const remaining = todos.filter((todo) => !todo.done).length;

  return (
    <section className="todo-list">
      <h1>{title}</h1>
      <form className="todo-form" onSubmit={addTodo}>
        <input
          value={text}
          onChange={(event) => setText(event.target.value)}
          placeholder="What needs to be done?"
          aria-label="New todo"
        />
        <button type="submit">Add</button>
      </form>
      <ul>
        {visible.map((todo) => (
          <TodoItem
            key={todo.id}
            todo={todo}
            onToggle={() => toggleTodo(todo.id)}
            onRemove={() => removeTodo(todo.id)}
          />
        ))}
      </ul>
      <div className="todo-footer">
        <span>{remaining} left</span>
        <div className="filters">
          {Object.keys(FILTERS).map((name) => (
            <button
              key={name}
              className={name === filter ? "selected" : ""}
              onClick={() => setFilter(name)}
            >
              {name}
            </button>
          ))}
        </div>
      </div>
    </section>
  );
}

TodoList.propTypes = {
  title: PropTypes.string,
  initialFilter: PropTypes.oneOf(Object.keys(FILTERS)),
};

TodoList.defaultProps = {
  title: "Todos",
  initialFilter: "all",
};
