          {/* ... existing form fields ... */}
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
        {/* ... rest of the component ... */}
