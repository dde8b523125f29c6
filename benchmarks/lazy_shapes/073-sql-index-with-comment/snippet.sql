-- ... existing code ...

-- Expired invitations are purged nightly; this keeps the purge off a full scan.
CREATE INDEX invitations_expires_at_idx ON invitations (expires_at);

ALTER TABLE users ADD COLUMN default_team_id UUID REFERENCES teams (id) ON DELETE SET NULL;

-- ... existing code ...
