// ... existing code ...
	r.Post("/orders", s.createOrder)
	// Register the new health check endpoint
	r.Get("/healthz", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
	})
	return r
}
// ... existing code ...
