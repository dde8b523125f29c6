-- 0007_accounts.sql: teams, memberships and invitations.

BEGIN;

CREATE TABLE teams (
    id          UUID PRIMARY KEY DEFAULT gen_random_uuid(),
    slug        VARCHAR(64) NOT NULL UNIQUE,
    name        VARCHAR(200) NOT NULL,
    plan        VARCHAR(20) NOT NULL DEFAULT 'free',
    created_at  TIMESTAMPTZ NOT NULL DEFAULT now()
);

CREATE TABLE memberships (
    team_id     UUID NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
    user_id     UUID NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    role        VARCHAR(20) NOT NULL DEFAULT 'member',
    created_at  TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY (team_id, user_id),
    CONSTRAINT memberships_role_check CHECK (role IN ('owner', 'admin', 'member'))
);

CREATE TABLE invitations (
    id          UUID PRIMARY KEY DEFAULT gen_random_uuid(),
    team_id     UUID NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
    email       VARCHAR(320) NOT NULL,
    role        VARCHAR(20) NOT NULL DEFAULT 'member',
    token       VARCHAR(64) NOT NULL UNIQUE,
    invited_by  UUID REFERENCES users (id) ON DELETE SET NULL,
    expires_at  TIMESTAMPTZ NOT NULL,
    accepted_at TIMESTAMPTZ,
    revoked_at  TIMESTAMPTZ,
    created_at  TIMESTAMPTZ NOT NULL DEFAULT now(),
    CONSTRAINT invitations_role_check CHECK (role IN ('admin', 'member'))
);

CREATE INDEX memberships_user_id_idx ON memberships (user_id);
CREATE INDEX invitations_team_id_idx ON invitations (team_id);
CREATE UNIQUE INDEX invitations_open_email_idx
    ON invitations (team_id, lower(email))
    WHERE accepted_at IS NULL;

ALTER TABLE users ADD COLUMN default_team_id UUID REFERENCES teams (id) ON DELETE SET NULL;

COMMIT;
