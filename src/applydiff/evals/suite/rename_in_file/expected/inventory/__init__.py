"""Stock keeping for the warehouse service."""
