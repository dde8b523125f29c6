  // ... existing code ...

  const handleSave = async () => {
    if (!user) return;
    setStatus("saving");
    setError(null);
    try {
      const saved = await updateUser(user.id, {
        name: draft.name.trim(),
        bio: draft.bio.trim(),
      });
      setUser(saved);
      setStatus("idle");
      onSaved?.(saved);
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
      setStatus("error");
    }
  };

  // ... existing code ...
