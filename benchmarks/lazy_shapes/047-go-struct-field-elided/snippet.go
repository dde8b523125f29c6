type Server struct {
	Products store.ProductStore
	// ... existing fields ...
	MaxPage  int
	ReadOnly bool
}

// ... existing code ...

func (s *Server) createOrder(w http.ResponseWriter, r *http.Request) {
	if s.ReadOnly {
		writeError(w, http.StatusServiceUnavailable, "orders are paused")
		return
	}
	var req createOrderRequest
// ... existing code ...
