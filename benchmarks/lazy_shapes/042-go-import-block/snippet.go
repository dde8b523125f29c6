import (
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"strconv"

	"github.com/go-chi/chi/v5"

	"example.com/shop/internal/store"
)

// ... existing code ...
	order, err := s.Orders.Create(r.Context(), req.ProductID, req.Quantity)
	if err != nil {
		slog.Error("create order", "product_id", req.ProductID, "err", err)
		writeError(w, http.StatusInternalServerError, "could not create order")
		return
	}
// ... existing code ...
