// ... existing code ...
  const removeTodo = useCallback((id) => {
    setTodos((current) => current.filter((todo) => todo.id !== id));
  }, []);

  const clearCompleted = useCallback(() => {
    setTodos((current) => current.filter((todo) => !todo.done));
  }, []);

// ... existing code ...
      <div className="todo-footer">
        <span>
          {remaining} {remaining === 1 ? "item" : "items"} left
        </span>
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
        {remaining < todos.length && (
          <button className="clear-completed" onClick={clearCompleted}>
            Clear completed
          </button>
        )}
      </div>
      {/* ... existing code ... */}
