// ... other handlers unchanged ...

func (s *Server) listProducts(w http.ResponseWriter, r *http.Request) {
	page, err := strconv.Atoi(r.URL.Query().Get("page"))
	if err != nil || page < 1 {
		page = 1
	}
	products, err := s.Products.List(r.Context(), page, s.MaxPage)
	if err != nil {
		writeError(w, http.StatusInternalServerError, "could not list products")
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{
		"page":     page,
		"products": products,
	})
}

// ... other handlers unchanged ...
