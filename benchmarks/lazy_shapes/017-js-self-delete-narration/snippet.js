// ... existing code ...
router.delete("/:id", requireAuth, requireAdmin, async (req, res, next) => {
  // Add a check so admins cannot delete their own account
  if (req.user.id === Number(req.params.id)) {
    return res.status(400).json({ error: "You cannot delete your own account" });
  }
  try {
// ... existing code ...
