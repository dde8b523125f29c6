// ...
  async function handleSubmit(event) {
    event.preventDefault();
    if (!items.every((item) => item.quantity > 0)) {
      setError("Every item needs a quantity of at least 1.");
      return;
    }
    setSubmitting(true);
// ...rest of the component
