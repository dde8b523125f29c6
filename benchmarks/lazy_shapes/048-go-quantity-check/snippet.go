// ... unchanged ...
	var req createOrderRequest
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		writeError(w, http.StatusBadRequest, "invalid JSON body")
		return
	}
	if req.Quantity < 1 || req.Quantity > 100 {
		writeError(w, http.StatusBadRequest, "quantity must be between 1 and 100")
		return
	}
	order, err := s.Orders.Create(r.Context(), req.ProductID, req.Quantity)
// ... rest of createOrder unchanged ...
