// ... existing code ...

// parseID reads the {id} URL parameter as a positive int64.
func parseID(r *http.Request) (int64, error) {
	id, err := strconv.ParseInt(chi.URLParam(r, "id"), 10, 64)
	if err != nil || id <= 0 {
		return 0, errors.New("invalid id")
	}
	return id, nil
}

func (s *Server) getProduct(w http.ResponseWriter, r *http.Request) {
	id, err := parseID(r)
	if err != nil {
// ... existing code ...
