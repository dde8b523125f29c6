"""Lazy snippets shaped as models write them for fast apply, in several languages, each with
the file a careful reader would make of it (issue 17). Written by hand, not by the corpus
generator: whole definitions with one member changed, markerless snippets of a few
definitions, new imports, narration, closers too common to anchor on. Every case must merge
exactly; ``REFUSED_TODAY`` lists the ones still refused (a refusal is allowed, a wrong file
never), so that a fix shows here."""

from __future__ import annotations

import pytest

from applydiff import Lazy, apply_ops

CASES: dict[str, tuple[str, str, str, str]] = {}  # name -> (path, before, snippet, after)


def case(name: str, path: str, before: str, snippet: str, after: str) -> None:
    CASES[name] = (path, before, snippet, after)


BUTTON = """import React from "react";
import { cn } from "../lib/cn";

type Props = {
  label: string;
  onClick: () => void;
  disabled?: boolean;
};

export function Button({ label, onClick, disabled }: Props) {
  return (
    <button
      className={cn("btn", disabled && "btn-disabled")}
      onClick={onClick}
      disabled={disabled}
    >
      {label}
    </button>
  );
}

export function IconButton({ label, onClick }: Props) {
  return (
    <button className="btn-icon" onClick={onClick} aria-label={label}>
      <span className="icon" />
    </button>
  );
}
"""

case(
    "tsx_whole_component_one_prop_changed",
    "src/components/Button.tsx",
    BUTTON,
    """export function Button({ label, onClick, disabled }: Props) {
  return (
    <button
      className={cn("btn", disabled && "btn-disabled")}
      onClick={onClick}
      disabled={disabled}
      type="button"
    >
      {label}
    </button>
  );
}
""",
    BUTTON.replace(
        "      disabled={disabled}\n", '      disabled={disabled}\n      type="button"\n'
    ),
)

case(
    "tsx_new_import_then_marker",
    "src/components/Button.tsx",
    BUTTON,
    """import { Spinner } from "./Spinner";
// ... existing code ...
""",
    BUTTON.replace(
        'import { cn } from "../lib/cn";\n',
        'import { cn } from "../lib/cn";\nimport { Spinner } from "./Spinner";\n',
    ),
)

case(
    "tsx_new_component_with_narration",
    "src/components/Button.tsx",
    BUTTON,
    """// ... existing code ...

// Add a new LinkButton component
export function LinkButton({ label, href }: { label: string; href: string }) {
  return (
    <a className="btn btn-link" href={href}>
      {label}
    </a>
  );
}
""",
    BUTTON
    + """
export function LinkButton({ label, href }: { label: string; href: string }) {
  return (
    <a className="btn btn-link" href={href}>
      {label}
    </a>
  );
}
""",
)

STYLES = """.container {
  display: flex;
  gap: 8px;
}

.card {
  padding: 16px;
  border-radius: 4px;
}

@media (max-width: 600px) {
  .container {
    display: block;
  }

  .card {
    padding: 8px;
  }
}
"""

case(
    "css_rule_changed_markerless",
    "styles/main.css",
    STYLES,
    """.card {
  padding: 16px;
  border-radius: 8px;
  box-shadow: 0 1px 2px rgba(0, 0, 0, 0.1);
}
""",
    STYLES.replace(
        "  border-radius: 4px;\n",
        "  border-radius: 8px;\n  box-shadow: 0 1px 2px rgba(0, 0, 0, 0.1);\n",
    ),
)

case(
    "css_media_rule_changed",
    "styles/main.css",
    STYLES,
    """/* ... existing styles ... */

@media (max-width: 600px) {
  /* ... */

  .card {
    padding: 4px;
  }
}
""",
    STYLES.replace("    padding: 8px;\n", "    padding: 4px;\n"),
)

LIB_RS = """use std::collections::HashMap;
use std::fmt;

pub struct Registry {
    items: HashMap<String, u32>,
}

impl Registry {
    pub fn new() -> Self {
        Registry { items: HashMap::new() }
    }

    pub fn add(&mut self, name: &str) {
        *self.items.entry(name.to_string()).or_insert(0) += 1;
    }
}

impl fmt::Display for Registry {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "{} items", self.items.len())
    }
}
"""

case(
    "rust_impl_method_added",
    "src/registry.rs",
    LIB_RS,
    """impl Registry {
    // ... existing code ...

    pub fn count(&self, name: &str) -> u32 {
        self.items.get(name).copied().unwrap_or(0)
    }
}
""",
    LIB_RS.replace(
        "        *self.items.entry(name.to_string()).or_insert(0) += 1;\n    }\n}\n",
        "        *self.items.entry(name.to_string()).or_insert(0) += 1;\n    }\n\n"
        "    pub fn count(&self, name: &str) -> u32 {\n"
        "        self.items.get(name).copied().unwrap_or(0)\n    }\n}\n",
    ),
)

case(
    "rust_trait_impl_changed",
    "src/registry.rs",
    LIB_RS,
    """impl fmt::Display for Registry {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "Registry({} items)", self.items.len())
    }
}
""",
    LIB_RS.replace('"{} items"', '"Registry({} items)"'),
)

SCHEMA = """CREATE TABLE users (
  id SERIAL PRIMARY KEY,
  email TEXT NOT NULL UNIQUE,
  created_at TIMESTAMPTZ DEFAULT now()
);

CREATE TABLE posts (
  id SERIAL PRIMARY KEY,
  user_id INT REFERENCES users(id),
  body TEXT NOT NULL
);

CREATE INDEX posts_user_id ON posts (user_id);
"""

case(
    "sql_column_added",
    "db/schema.sql",
    SCHEMA,
    """-- ... existing tables ...
CREATE TABLE posts (
  id SERIAL PRIMARY KEY,
  user_id INT REFERENCES users(id),
  title TEXT,
  body TEXT NOT NULL
);
-- ... existing indexes ...
""",
    SCHEMA.replace(
        "  user_id INT REFERENCES users(id),\n  body",
        "  user_id INT REFERENCES users(id),\n  title TEXT,\n  body",
    ),
)

APP_VUE = """<template>
  <div class="app">
    <header class="app-header">
      <h1>{{ title }}</h1>
    </header>
    <main class="app-main">
      <TodoList :items="items" />
    </main>
  </div>
</template>

<script>
export default {
  data() {
    return { title: "Todos", items: [] };
  },
};
</script>
"""

case(
    "vue_element_changed",
    "src/App.vue",
    APP_VUE,
    """<template>
  <div class="app">
    <!-- ... existing code ... -->
    <main class="app-main">
      <TodoList :items="items" @remove="removeItem" />
    </main>
  </div>
</template>
""",
    APP_VUE.replace(
        '<TodoList :items="items" />', '<TodoList :items="items" @remove="removeItem" />'
    ),
)

HANDLERS_GO = """package api

import (
	"encoding/json"
	"net/http"
)

type Server struct {
	store Store
}

func (s *Server) handleList(w http.ResponseWriter, r *http.Request) {
	items, err := s.store.List()
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	json.NewEncoder(w).Encode(items)
}

func (s *Server) handleGet(w http.ResponseWriter, r *http.Request) {
	id := r.URL.Query().Get("id")
	item, err := s.store.Get(id)
	if err != nil {
		http.Error(w, err.Error(), http.StatusNotFound)
		return
	}
	json.NewEncoder(w).Encode(item)
}
"""

case(
    "go_method_changed_with_common_closers",
    "api/handlers.go",
    HANDLERS_GO,
    """// ... existing code ...

func (s *Server) handleGet(w http.ResponseWriter, r *http.Request) {
	id := r.URL.Query().Get("id")
	if id == "" {
		http.Error(w, "missing id", http.StatusBadRequest)
		return
	}
	item, err := s.store.Get(id)
	// ... existing code ...
}
""",
    HANDLERS_GO.replace(
        '\tid := r.URL.Query().Get("id")\n',
        '\tid := r.URL.Query().Get("id")\n\tif id == "" {\n'
        '\t\thttp.Error(w, "missing id", http.StatusBadRequest)\n\t\treturn\n\t}\n',
    ),
)

SERVICE_PY = """import logging

log = logging.getLogger(__name__)


class Service:
    def __init__(self, client):
        self.client = client

    def fetch(self, key):
        log.debug("fetch %s", key)
        return self.client.get(key)

    def store(self, key, value):
        self.client.set(key, value)


def build(client):
    return Service(client)
"""

case(
    "python_two_functions_markerless",
    "app/service.py",
    SERVICE_PY,
    """    def fetch(self, key):
        log.debug("fetch %s", key)
        value = self.client.get(key)
        return value if value is not None else ""


def build(client, *, retries=3):
    return Service(client)
""",
    SERVICE_PY.replace(
        "        return self.client.get(key)\n",
        '        value = self.client.get(key)\n        return value if value is not None else ""\n',
    ).replace("def build(client):", "def build(client, *, retries=3):"),
)

case(
    "python_new_import_and_method_with_narration",
    "app/service.py",
    SERVICE_PY,
    """import time
# ... existing imports ...

class Service:
    # ... existing code ...

    # Add a retry helper method
    def fetch_retry(self, key, tries=3):
        for _ in range(tries):
            value = self.fetch(key)
            if value is not None:
                return value
            time.sleep(0.1)
        return None
""",
    SERVICE_PY.replace("import logging\n", "import logging\nimport time\n").replace(
        "        self.client.set(key, value)\n",
        "        self.client.set(key, value)\n\n"
        "    # Add a retry helper method\n"
        "    def fetch_retry(self, key, tries=3):\n"
        "        for _ in range(tries):\n"
        "            value = self.fetch(key)\n"
        "            if value is not None:\n"
        "                return value\n"
        "            time.sleep(0.1)\n"
        "        return None\n",
    ),
)

ROUTES_JS = """const express = require("express");
const router = express.Router();

router.get("/users", async (req, res) => {
  const users = await db.users.all();
  res.json(users);
});

router.post("/users", async (req, res) => {
  const user = await db.users.create(req.body);
  res.status(201).json(user);
});

module.exports = router;
"""

case(
    "js_route_changed_closers_only",
    "routes/users.js",
    ROUTES_JS,
    """// ... existing code ...
router.post("/users", async (req, res) => {
  if (!req.body.email) {
    return res.status(400).json({ error: "email required" });
  }
  const user = await db.users.create(req.body);
  res.status(201).json(user);
});
// ... existing code ...
""",
    ROUTES_JS.replace(
        'router.post("/users", async (req, res) => {\n',
        'router.post("/users", async (req, res) => {\n  if (!req.body.email) {\n'
        '    return res.status(400).json({ error: "email required" });\n  }\n',
    ),
)

TODO_TSX = """import { useState } from "react";

export default function TodoApp() {
  const [items, setItems] = useState<string[]>([]);
  const [text, setText] = useState("");

  function add() {
    setItems([...items, text]);
    setText("");
  }

  return (
    <div className="todo">
      <input value={text} onChange={(e) => setText(e.target.value)} />
      <button onClick={add}>Add</button>
      <ul>
        {items.map((item) => (
          <li key={item}>{item}</li>
        ))}
      </ul>
    </div>
  );
}
"""

case(
    "tsx_jsx_markers_and_closers",
    "src/TodoApp.tsx",
    TODO_TSX,
    """export default function TodoApp() {
  // ... existing code ...

  return (
    <div className="todo">
      {/* ... existing code ... */}
      <ul>
        {items.map((item) => (
          <li key={item} className="todo-item">
            {item}
          </li>
        ))}
      </ul>
    </div>
  );
}
""",
    TODO_TSX.replace(
        "          <li key={item}>{item}</li>\n",
        '          <li key={item} className="todo-item">\n            {item}\n          </li>\n',
    ),
)

CONFIG_YAML = """name: ci
on:
  push:
    branches: [main]
jobs:
  test:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - run: make test
  lint:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - run: make lint
"""

case(
    "yaml_job_changed",
    ".github/workflows/ci.yml",
    CONFIG_YAML,
    """# ... existing config ...
  lint:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - run: make lint
      - run: make typecheck
""",
    CONFIG_YAML + "      - run: make typecheck\n",
)

USER_JAVA = """package app;

import java.util.List;

public class UserService {
    private final UserRepository repo;

    public UserService(UserRepository repo) {
        this.repo = repo;
    }

    public List<User> all() {
        return repo.findAll();
    }

    public User byId(long id) {
        return repo.findById(id).orElseThrow();
    }
}
"""

case(
    "java_method_added_in_class",
    "src/main/java/app/UserService.java",
    USER_JAVA,
    """public class UserService {
    // ... existing code ...

    public void delete(long id) {
        repo.deleteById(id);
    }
}
""",
    USER_JAVA.replace(
        "        return repo.findById(id).orElseThrow();\n    }\n}\n",
        "        return repo.findById(id).orElseThrow();\n    }\n\n"
        "    public void delete(long id) {\n        repo.deleteById(id);\n    }\n}\n",
    ),
)

PARSER_C = """#include <stdio.h>
#include <string.h>

static int count_words(const char *s)
{
\tint n = 0;
\tint in = 0;
\tfor (; *s; s++) {
\t\tif (*s == ' ') {
\t\t\tin = 0;
\t\t} else if (!in) {
\t\t\tin = 1;
\t\t\tn++;
\t\t}
\t}
\treturn n;
}

int main(void)
{
\tprintf("%d\\n", count_words("a b c"));
\treturn 0;
}
"""

case(
    "c_function_changed_tabs",
    "src/words.c",
    PARSER_C,
    """/* ... existing code ... */
static int count_words(const char *s)
{
\tint n = 0;
\tint in = 0;
\tfor (; *s; s++) {
\t\tif (*s == ' ' || *s == '\\t') {
\t\t\tin = 0;
\t\t} else if (!in) {
\t\t\tin = 1;
\t\t\tn++;
\t\t}
\t}
\treturn n;
}
/* ... existing code ... */
""",
    PARSER_C.replace("if (*s == ' ') {", "if (*s == ' ' || *s == '\\t') {"),
)

PAGE_HTML = """<!DOCTYPE html>
<html>
  <head>
    <title>Shop</title>
  </head>
  <body>
    <nav id="top">
      <a href="/">Home</a>
      <a href="/cart">Cart</a>
    </nav>
    <section id="products">
      <h2>Products</h2>
    </section>
  </body>
</html>
"""

case(
    "html_nav_link_added",
    "public/index.html",
    PAGE_HTML,
    """<!-- ... -->
    <nav id="top">
      <a href="/">Home</a>
      <a href="/cart">Cart</a>
      <a href="/account">Account</a>
    </nav>
<!-- ... -->
""",
    PAGE_HTML.replace(
        '      <a href="/cart">Cart</a>\n',
        '      <a href="/cart">Cart</a>\n      <a href="/account">Account</a>\n',
    ),
)

THEME_SCSS = """$primary: #336699;

.button {
  color: $primary;

  &:hover {
    color: darken($primary, 10%);
  }
}

.link {
  color: $primary;
}
"""

case(
    "scss_nested_rule_changed",
    "styles/theme.scss",
    THEME_SCSS,
    """// ... existing code ...
.button {
  // ... existing code ...
  &:hover {
    color: darken($primary, 20%);
    text-decoration: underline;
  }
}
""",
    THEME_SCSS.replace(
        "    color: darken($primary, 10%);\n",
        "    color: darken($primary, 20%);\n    text-decoration: underline;\n",
    ),
)

case(
    "python_decorated_function_whole",
    "app/service.py",
    SERVICE_PY,
    """class Service:
    def __init__(self, client, timeout=5):
        self.client = client
        self.timeout = timeout

    # ... existing methods ...
""",
    SERVICE_PY.replace(
        "    def __init__(self, client):\n        self.client = client\n",
        "    def __init__(self, client, timeout=5):\n        self.client = client\n"
        "        self.timeout = timeout\n",
    ),
)

MAIN_KT = """package app

import android.os.Bundle

class MainActivity : AppCompatActivity() {
    override fun onCreate(savedInstanceState: Bundle?) {
        super.onCreate(savedInstanceState)
        setContentView(R.layout.main)
    }

    fun greet(name: String): String {
        return "Hello, $name"
    }
}
"""

case(
    "kotlin_function_changed",
    "app/src/main/java/app/MainActivity.kt",
    MAIN_KT,
    """// ... existing code ...
    fun greet(name: String): String {
        return "Hello, ${name.trim()}!"
    }
// ... existing code ...
""",
    MAIN_KT.replace('"Hello, $name"', '"Hello, ${name.trim()}!"'),
)

case(
    "css_rule_appended_after_marker",
    "styles/main.css",
    STYLES,
    """/* ... existing styles ... */

.badge {
  font-size: 12px;
}
""",
    STYLES + "\n.badge {\n  font-size: 12px;\n}\n",
)

UTIL_JS = """export function slug(s) {
  return s.toLowerCase().replace(/\\s+/g, "-");
}

export function title(s) {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
"""

case(
    "js_markerless_whole_file",
    "src/util.js",
    UTIL_JS,
    """export function slug(s) {
  return s.trim().toLowerCase().replace(/\\s+/g, "-");
}

export function title(s) {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
""",
    UTIL_JS.replace("s.toLowerCase()", "s.trim().toLowerCase()"),
)

case(
    "tsx_hook_added_inside_component",
    "src/TodoApp.tsx",
    TODO_TSX,
    """import { useEffect, useState } from "react";

export default function TodoApp() {
  const [items, setItems] = useState<string[]>([]);
  const [text, setText] = useState("");

  useEffect(() => {
    document.title = `${items.length} todos`;
  }, [items]);

  // ... existing code ...
}
""",
    TODO_TSX.replace(
        'import { useState } from "react";', 'import { useEffect, useState } from "react";'
    ).replace(
        '  const [text, setText] = useState("");\n',
        '  const [text, setText] = useState("");\n\n  useEffect(() => {\n'
        "    document.title = `${items.length} todos`;\n  }, [items]);\n",
    ),
)

# Today's refusals among the cases: allowed (never a wrong file), listed so a fix shows.
REFUSED_TODAY: set[str] = set()
# (tsx_hook_added_inside_component merges since issue 26: the new statements close every
# bracket they open, so they cannot stand for the file's line that opens a block.)


@pytest.mark.parametrize("name", sorted(CASES))
def test_written_shape(name):
    path, before, snippet, after = CASES[name]
    cs = apply_ops([Lazy(path, snippet)], {path: before})
    if name in REFUSED_TODAY:
        assert not cs.ok, f"{name} merges now: take it out of REFUSED_TODAY"
        return
    assert cs.ok, cs.errors[0].error.message
    assert cs.texts()[path] == after


# Snippets no careful reader could place for sure: each must be refused.
MUST_REFUSE: dict[str, tuple[str, str, str]] = {
    "class_shown_without_a_method_and_no_marker": (
        "src/main/java/app/UserService.java",
        USER_JAVA,
        USER_JAVA.replace(
            "    public List<User> all() {\n        return repo.findAll();\n    }\n\n", ""
        ).replace("orElseThrow()", "orElse(null)"),
    ),
    "method_twin_in_two_classes": (
        "src/registry.rs",
        LIB_RS + "\nimpl Other {\n    pub fn new() -> Self {\n        Other\n    }\n}\n",
        "// ... existing code ...\n    pub fn new() -> Self {\n        Self::default()\n    }\n"
        "// ... existing code ...\n",
    ),
    "element_id_changed_beside_the_old_one": (
        "public/index.html",
        PAGE_HTML,
        '<!-- ... -->\n    <section id="catalog">\n      <h2>Products</h2>\n    </section>\n'
        "<!-- ... -->\n",
    ),
}


@pytest.mark.parametrize("name", sorted(MUST_REFUSE))
def test_written_shape_refused(name):
    path, before, snippet = MUST_REFUSE[name]
    cs = apply_ops([Lazy(path, snippet)], {path: before})
    assert not cs.ok, cs.texts()[path]
    assert cs.errors[0].error.code in ("ambiguous", "no_match")
