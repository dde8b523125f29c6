"""The diff modes, and the model-size profiles that pick one for a model by its name."""

from __future__ import annotations

import re
from typing import Any

from .. import names

# The edit tool each mode offers is in the catalogue; "off" offers none (reads only).
MODES = names.MODES
DEFAULT_MODE = "search_replace_multi"
PROFILES: dict[str, dict[str, Any]] = {
    "nano": {"max_params_b": 4.0, "mode": "diff_block"},  # write_file + SEARCH/REPLACE text
    "minimal": {"max_params_b": 15.0, "mode": "search_replace"},  # write_file + edit_file
    "full": {"max_params_b": None, "mode": DEFAULT_MODE},
}

# "7b", "1.5B", "8x7b" (experts), "360m", "e2b" (an effective size, as gemma3n states it).
_SIZE = re.compile(r"(?<![\w.])(?:[eE](?=\d))?(?:(\d+)x)?(\d+(?:\.\d+)?)\s*([bBmM])(?![a-zA-Z])")

# Names that state no size: the size their default tag (Ollama's, Hugging Face's) has.
# The first pattern that matches the name wins, so the specific ones come first.
_FAMILY_SIZES: tuple[tuple[re.Pattern[str], float], ...] = tuple(
    (re.compile(pattern, re.IGNORECASE), size)
    for pattern, size in (
        (r"tinyllama", 1.1),
        (r"phi-?3(?:\.5)?[:-]?medium", 14.0),
        (r"phi-?3(?:\.5)?[:-]?small", 7.0),
        (r"llama-?3\.2-?vision", 11.0),
        (r"smollm", 1.7),
        (r"phi-?2\b", 2.7),
        (r"phi-?[34](?:\.\d)?-?mini", 3.8),
        (r"phi-?3(?:\.5)?(?!\d)", 3.8),
        (r"phi-?4(?!\d)", 14.0),
        (r"llama-?3\.2(?!\d)", 3.0),
        (r"llama-?3(?:\.1)?(?![\d.])", 8.0),
        (r"qwen2\.5-?coder", 7.0),
        (r"gemma-?3n", 4.0),
        (r"gemma-?3(?!\d)", 4.0),
        (r"codellama|code-llama", 7.0),
        (r"deepseek-?coder(?!-?v2)", 1.3),
        (r"starcoder2", 3.0),
    )
)


def parameters_b(model: str) -> float | None:
    """Billions of parameters a model name states (``llama3.2:3b`` -> 3.0, ``smollm2:360m``
    -> 0.36, ``gemma3n:e2b`` -> 2.0) or, for a known family named without a size, its
    default size (``tinyllama`` -> 1.1); None for anything else."""
    best = None
    for m in _SIZE.finditer(model.replace("_", "-")):
        experts = int(m.group(1) or 1)
        size = float(m.group(2)) * experts / (1000.0 if m.group(3) in "mM" else 1.0)
        best = size if best is None else max(best, size)
    if best is not None:
        return best
    for pattern, size in _FAMILY_SIZES:
        if pattern.search(model):
            return size
    return None


def profile_for(model: str) -> str:
    """``nano`` (up to 4B parameters), ``minimal`` (up to 15B), else ``full`` (also when the
    name states no size: hosted models are large)."""
    size = parameters_b(model)
    if size is None:
        return "full"
    for name in ("nano", "minimal"):
        limit = PROFILES[name]["max_params_b"]
        assert isinstance(limit, float)
        if size <= limit:
            return name
    return "full"


def mode_for(profile: str | None = None, model: str | None = None, mode: str | None = None) -> str:
    """The diff_mode to use: an explicit ``mode`` wins, then the profile (given or inferred
    from the model name), else the default."""
    if mode:
        if mode not in MODES:
            raise ValueError(f"unknown diff_mode {mode!r}; expected one of {MODES}")
        return mode
    if profile is None and model:
        profile = profile_for(model)
    if profile is None:
        return DEFAULT_MODE
    if profile not in PROFILES:
        raise ValueError(f"unknown profile {profile!r}; expected one of {tuple(PROFILES)}")
    value = PROFILES[profile]["mode"]
    assert isinstance(value, str)
    return value
