"""The ledger: business rules for billing, stock and payouts."""
