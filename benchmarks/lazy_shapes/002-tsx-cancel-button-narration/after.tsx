import React, { useEffect, useState } from "react";
import { Link, useParams } from "react-router-dom";
import { fetchUser, updateUser, User } from "../api/users";
import { Avatar } from "./Avatar";
import { Spinner } from "./Spinner";
import styles from "./UserProfile.module.css";

interface UserProfileProps {
  editable?: boolean;
  onSaved?: (user: User) => void;
}

type Status = "idle" | "loading" | "saving" | "error";

export function UserProfile({ editable = false, onSaved }: UserProfileProps) {
  const { userId } = useParams<{ userId: string }>();
  const [user, setUser] = useState<User | null>(null);
  const [draft, setDraft] = useState({ name: "", bio: "" });
  const [status, setStatus] = useState<Status>("loading");
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (!userId) return;
    let cancelled = false;
    setStatus("loading");
    fetchUser(userId)
      .then((data) => {
        if (cancelled) return;
        setUser(data);
        setDraft({ name: data.name, bio: data.bio ?? "" });
        setStatus("idle");
      })
      .catch((err: Error) => {
        if (cancelled) return;
        setError(err.message);
        setStatus("error");
      });
    return () => {
      cancelled = true;
    };
  }, [userId]);

  const handleChange =
    (field: "name" | "bio") =>
    (e: React.ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => {
      setDraft((prev) => ({ ...prev, [field]: e.target.value }));
    };

  const handleSave = async () => {
    if (!user) return;
    setStatus("saving");
    try {
      const saved = await updateUser(user.id, draft);
      setUser(saved);
      setStatus("idle");
      onSaved?.(saved);
    } catch (err) {
      setError((err as Error).message);
      setStatus("error");
    }
  };

  if (status === "loading") {
    return <Spinner label="Loading profile" />;
  }

  if (status === "error" || !user) {
    return (
      <div className={styles.error}>
        <p>Could not load this profile: {error}</p>
        <Link to="/users">Back to users</Link>
      </div>
    );
  }

  return (
    <div className={styles.profile}>
      <header className={styles.header}>
        <Avatar src={user.avatarUrl} alt={user.name} size={64} />
        <div>
          <h2>{user.name}</h2>
          <span className={styles.handle}>@{user.username}</span>
        </div>
      </header>
      {editable ? (
        <form
          className={styles.form}
          onSubmit={(e) => {
            e.preventDefault();
            handleSave();
          }}
        >
          <label>
            Name
            <input value={draft.name} onChange={handleChange("name")} />
          </label>
          <label>
            Bio
            <textarea value={draft.bio} onChange={handleChange("bio")} rows={4} />
          </label>
          <button type="submit" disabled={status === "saving"}>
            {status === "saving" ? "Saving..." : "Save"}
          </button>
          {/* Add a cancel button that resets the draft to the saved values */}
          <button
            type="button"
            onClick={() => setDraft({ name: user.name, bio: user.bio ?? "" })}
            disabled={status === "saving"}
          >
            Cancel
          </button>
        </form>
      ) : (
        <p className={styles.bio}>{user.bio}</p>
      )}
    </div>
  );
}

export default UserProfile;
