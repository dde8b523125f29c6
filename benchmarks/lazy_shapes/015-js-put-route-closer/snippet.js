// ... existing routes ...

router.put("/:id", requireAuth, validateUser, async (req, res, next) => {
  if (req.user.id !== Number(req.params.id) && req.user.role !== "admin") {
    return res.status(403).json({ error: "Forbidden" });
  }
  const errors = validationResult(req);
  if (!errors.isEmpty()) {
    return res.status(422).json({ errors: errors.array() });
  }
  try {
    const changes = { email: req.body.email, name: req.body.name };
    if (req.body.password) {
      changes.password_hash = await bcrypt.hash(req.body.password, 12);
    }
    const [user] = await db("users")
      .where({ id: req.params.id })
      .update(changes)
      .returning(PUBLIC_FIELDS);
    if (!user) {
      return res.status(404).json({ error: "User not found" });
    }
    res.json(user);
  } catch (err) {
    next(err);
  }
});

// ... existing routes ...
