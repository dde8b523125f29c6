"""Small text helpers shared by the blog and the docs site."""

from .casing import camel_to_snake, snake_to_title
from .slug import slugify

__all__ = ["camel_to_snake", "slugify", "snake_to_title"]
