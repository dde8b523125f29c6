const express = require("express");
const bcrypt = require("bcrypt");
const { body, validationResult } = require("express-validator");
const db = require("../db");
const { requireAuth, requireAdmin } = require("../middleware/auth");

const router = express.Router();

const PUBLIC_FIELDS = ["id", "email", "name", "role", "created_at"];

function toPublic(user) {
  return PUBLIC_FIELDS.reduce((out, field) => {
    out[field] = user[field];
    return out;
  }, {});
}

const validateUser = [
  body("email").isEmail().normalizeEmail(),
  body("name").trim().isLength({ min: 1, max: 100 }),
  body("password").optional().isLength({ min: 8 }),
];

router.get("/", requireAuth, requireAdmin, async (req, res, next) => {
  try {
    const limit = Math.min(Number(req.query.limit) || 50, 200);
    const offset = Number(req.query.offset) || 0;
    const users = await db("users").select(PUBLIC_FIELDS).orderBy("id").limit(limit).offset(offset);
    res.json({ users, limit, offset });
  } catch (err) {
    next(err);
  }
});

router.get("/:id", requireAuth, async (req, res, next) => {
  try {
    const user = await db("users").where({ id: req.params.id }).first();
    if (!user) {
      return res.status(404).json({ error: "User not found" });
    }
    res.json(toPublic(user));
  } catch (err) {
    next(err);
  }
});

router.post("/", validateUser, async (req, res, next) => {
  const errors = validationResult(req);
  if (!errors.isEmpty()) {
    return res.status(422).json({ errors: errors.array() });
  }
  try {
    const { email, name, password } = req.body;
    const hash = await bcrypt.hash(password, 12);
    const [user] = await db("users")
      .insert({ email, name, password_hash: hash, role: "member" })
      .returning(PUBLIC_FIELDS);
    res.status(201).json(user);
  } catch (err) {
    if (err.code === "23505") {
      return res.status(409).json({ error: "Email already registered" });
    }
    next(err);
  }
});

router.put("/:id", requireAuth, validateUser, async (req, res, next) => {
  if (req.user.id !== Number(req.params.id) && req.user.role !== "admin") {
    return res.status(403).json({ error: "Forbidden" });
  }
  try {
    const changes = { email: req.body.email, name: req.body.name };
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

router.delete("/:id", requireAuth, requireAdmin, async (req, res, next) => {
  // Add a check so admins cannot delete their own account
  if (req.user.id === Number(req.params.id)) {
    return res.status(400).json({ error: "You cannot delete your own account" });
  }
  try {
    const deleted = await db("users").where({ id: req.params.id }).del();
    if (!deleted) {
      return res.status(404).json({ error: "User not found" });
    }
    res.status(204).end();
  } catch (err) {
    next(err);
  }
});

module.exports = router;
