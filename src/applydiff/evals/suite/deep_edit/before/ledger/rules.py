"""Business rules for the ledger: records, validation, totals and reports.

Generated long ago from the old rules spreadsheet and edited by hand since; one section per
record type, in the order the spreadsheet had them.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from datetime import date, timedelta
from decimal import ROUND_HALF_UP, Decimal

CENT = Decimal("0.01")
TRUTHY = {"1", "true", "yes", "y"}


# -- Invoice ---------------------------------------------------------------------------------------
INVOICE_STATUSES = ("draft", "sent", "paid", "void")
INVOICE_LABELS = {"draft": "Draft", "sent": "Sent", "paid": "Paid", "void": "Void"}


@dataclass
class Invoice:
    number: str
    amount: Decimal
    due_date: date
    line_count: int = 1
    paid: bool = True
    status: str = "draft"


def validate_invoice(invoice: Invoice) -> list[str]:
    errors = []
    if not invoice.number.strip():
        errors.append("number is required")
    if invoice.amount < 0:
        errors.append("amount must not be negative")
    if invoice.line_count < 0:
        errors.append("line_count must be at least 0")
    if invoice.status not in INVOICE_STATUSES:
        errors.append(f"unknown status {invoice.status!r}")
    return errors


def summarize_invoices(invoices: list[Invoice]) -> str:
    if not invoices:
        return "no invoices"
    total = sum((invoice.amount for invoice in invoices), Decimal("0"))
    flagged = sum(1 for invoice in invoices if invoice.paid)
    return f"{len(invoices)} invoices, {total:.2f} in total, {flagged} paid"


def advance_invoice(invoice: Invoice, new_status: str) -> Invoice:
    allowed = {("draft", "sent"), ("sent", "paid"), ("paid", "void")}
    if (invoice.status, new_status) not in allowed:
        raise ValueError(f"cannot move invoice from {invoice.status} to {new_status}")
    return replace(invoice, status=new_status)


def split_invoices_by_paid(invoices: Iterable[Invoice]) -> tuple[list[Invoice], list[Invoice]]:
    yes: list[Invoice] = []
    no: list[Invoice] = []
    for invoice in invoices:
        (yes if invoice.paid else no).append(invoice)
    return yes, no


def amount_by_month(invoices: Iterable[Invoice]) -> dict[str, Decimal]:
    months: dict[str, Decimal] = {}
    for invoice in invoices:
        key = f"{invoice.due_date.year:04d}-{invoice.due_date.month:02d}"
        months[key] = months.get(key, Decimal("0")) + invoice.amount
    return dict(sorted(months.items()))


def average_line_count(invoices: list[Invoice]) -> float:
    if not invoices:
        return 0.0
    return sum(invoice.line_count for invoice in invoices) / len(invoices)


def total_amount(invoices: Iterable[Invoice], *, only_paid: bool = False) -> Decimal:
    total = Decimal("0")
    for invoice in invoices:
        if only_paid and not invoice.paid:
            continue
        total += invoice.amount
    return total.quantize(CENT, rounding=ROUND_HALF_UP)


def invoice_to_row(invoice: Invoice) -> dict[str, str]:
    return {
        "number": invoice.number,
        "amount": f"{invoice.amount:.2f}",
        "due_date": invoice.due_date.isoformat(),
        "line_count": str(invoice.line_count),
        "paid": "yes" if invoice.paid else "no",
        "status": invoice.status,
    }


def invoice_from_row(row: dict[str, str]) -> Invoice:
    return Invoice(
        number=row["number"].strip(),
        amount=Decimal(row["amount"]),
        due_date=date.fromisoformat(row["due_date"]),
        line_count=int(row.get("line_count") or 0),
        paid=row.get("paid", "").lower() in TRUTHY,
        status=row.get("status") or "draft",
    )


class InvoiceStore:
    """In-memory invoices keyed by number."""

    def __init__(self) -> None:
        self._items: dict[str, Invoice] = {}

    def add(self, invoice: Invoice) -> None:
        if invoice.number in self._items:
            raise KeyError(f"duplicate number {invoice.number}")
        self._items[invoice.number] = invoice

    def get(self, key: str) -> Invoice | None:
        return self._items.get(key)

    def remove(self, key: str) -> Invoice:
        return self._items.pop(key)

    def __len__(self) -> int:
        return len(self._items)

    def with_status(self, status: str) -> list[Invoice]:
        return [item for item in self._items.values() if item.status == status]


def invoice_status_label(invoice: Invoice) -> str:
    return INVOICE_LABELS.get(invoice.status, invoice.status.replace("_", " ").title())


def invoice_late_fee(invoice: Invoice, paid_on: date) -> Decimal:
    days_late = (paid_on - invoice.due_date).days
    if days_late <= 14:
        return Decimal("0.00")
    weeks = days_late // 7
    return min(Decimal("2.50") * weeks, Decimal("50.00"))


# -- Shipment --------------------------------------------------------------------------------------
SHIPMENT_STATUSES = ("pending", "in_transit", "delivered", "returned")
SHIPMENT_LABELS = {
    "pending": "Pending",
    "in_transit": "In transit",
    "delivered": "Delivered",
    "returned": "Returned",
}


@dataclass
class Shipment:
    tracking_code: str
    declared_value: Decimal
    shipped_on: date
    parcels: int = 1
    insured: bool = True
    status: str = "pending"


def validate_shipment(shipment: Shipment) -> list[str]:
    errors = []
    if not shipment.tracking_code.strip():
        errors.append("tracking_code is required")
    if shipment.declared_value < 0:
        errors.append("declared_value must not be negative")
    if shipment.parcels < 1:
        errors.append("parcels must be at least 1")
    if shipment.status not in SHIPMENT_STATUSES:
        errors.append(f"unknown status {shipment.status!r}")
    return errors


def is_large_shipment(shipment: Shipment, limit: Decimal = Decimal("500.00")) -> bool:
    return shipment.declared_value >= limit


def shipment_status_label(shipment: Shipment) -> str:
    return SHIPMENT_LABELS.get(shipment.status, shipment.status.replace("_", " ").title())


def group_shipments_by_status(shipments: Iterable[Shipment]) -> dict[str, list[Shipment]]:
    groups: dict[str, list[Shipment]] = {status: [] for status in SHIPMENT_STATUSES}
    for shipment in shipments:
        groups.setdefault(shipment.status, []).append(shipment)
    return groups


def shipments_since(shipments: Iterable[Shipment], since: date) -> list[Shipment]:
    return sorted(
        (shipment for shipment in shipments if shipment.shipped_on >= since),
        key=lambda item: item.shipped_on,
    )


def split_shipments_by_insured(
    shipments: Iterable[Shipment],
) -> tuple[list[Shipment], list[Shipment]]:
    yes: list[Shipment] = []
    no: list[Shipment] = []
    for shipment in shipments:
        (yes if shipment.insured else no).append(shipment)
    return yes, no


def total_declared_value(shipments: Iterable[Shipment], *, only_insured: bool = False) -> Decimal:
    total = Decimal("0")
    for shipment in shipments:
        if only_insured and not shipment.insured:
            continue
        total += shipment.declared_value
    return total.quantize(CENT, rounding=ROUND_HALF_UP)


def shipment_to_row(shipment: Shipment) -> dict[str, str]:
    return {
        "tracking_code": shipment.tracking_code,
        "declared_value": f"{shipment.declared_value:.2f}",
        "shipped_on": shipment.shipped_on.isoformat(),
        "parcels": str(shipment.parcels),
        "insured": "yes" if shipment.insured else "no",
        "status": shipment.status,
    }


def summarize_shipments(shipments: list[Shipment]) -> str:
    if not shipments:
        return "no shipments"
    total = sum((shipment.declared_value for shipment in shipments), Decimal("0"))
    flagged = sum(1 for shipment in shipments if shipment.insured)
    return f"{len(shipments)} shipments, {total:.2f} in total, {flagged} insured"


def average_parcels(shipments: list[Shipment]) -> float:
    if not shipments:
        return 0.0
    return sum(shipment.parcels for shipment in shipments) / len(shipments)


def declared_value_by_month(shipments: Iterable[Shipment]) -> dict[str, Decimal]:
    months: dict[str, Decimal] = {}
    for shipment in shipments:
        key = f"{shipment.shipped_on.year:04d}-{shipment.shipped_on.month:02d}"
        months[key] = months.get(key, Decimal("0")) + shipment.declared_value
    return dict(sorted(months.items()))


# -- Customer --------------------------------------------------------------------------------------
CUSTOMER_STATUSES = ("lead", "active", "churned")
CUSTOMER_LABELS = {"lead": "Lead", "active": "Active", "churned": "Churned"}


@dataclass
class Customer:
    email: str
    lifetime_value: Decimal
    joined_on: date
    order_count: int = 1
    active: bool = True
    status: str = "lead"


def validate_customer(customer: Customer) -> list[str]:
    errors = []
    if not customer.email.strip():
        errors.append("email is required")
    if customer.lifetime_value < 0:
        errors.append("lifetime_value must not be negative")
    if customer.order_count < 1:
        errors.append("order_count must be at least 1")
    if customer.status not in CUSTOMER_STATUSES:
        errors.append(f"unknown status {customer.status!r}")
    return errors


def customer_to_row(customer: Customer) -> dict[str, str]:
    return {
        "email": customer.email,
        "lifetime_value": f"{customer.lifetime_value:.2f}",
        "joined_on": customer.joined_on.isoformat(),
        "order_count": str(customer.order_count),
        "active": "yes" if customer.active else "no",
        "status": customer.status,
    }


def average_order_count(customers: list[Customer]) -> float:
    if not customers:
        return 0.0
    return sum(customer.order_count for customer in customers) / len(customers)


class CustomerStore:
    """In-memory customers keyed by email."""

    def __init__(self) -> None:
        self._items: dict[str, Customer] = {}

    def add(self, customer: Customer) -> None:
        if customer.email in self._items:
            raise KeyError(f"duplicate email {customer.email}")
        self._items[customer.email] = customer

    def get(self, key: str) -> Customer | None:
        return self._items.get(key)

    def remove(self, key: str) -> Customer:
        return self._items.pop(key)

    def __len__(self) -> int:
        return len(self._items)

    def with_status(self, status: str) -> list[Customer]:
        return [item for item in self._items.values() if item.status == status]


def customer_status_label(customer: Customer) -> str:
    return CUSTOMER_LABELS.get(customer.status, customer.status.replace("_", " ").title())


def is_large_customer(customer: Customer, limit: Decimal = Decimal("25.00")) -> bool:
    return customer.lifetime_value >= limit


def summarize_customers(customers: list[Customer]) -> str:
    if not customers:
        return "no customers"
    total = sum((customer.lifetime_value for customer in customers), Decimal("0"))
    flagged = sum(1 for customer in customers if customer.active)
    return f"{len(customers)} customers, {total:.2f} in total, {flagged} active"


def customer_age_days(customer: Customer, today: date | None = None) -> int:
    today = today or date.today()
    return max(0, (today - customer.joined_on).days)


def lifetime_value_by_month(customers: Iterable[Customer]) -> dict[str, Decimal]:
    months: dict[str, Decimal] = {}
    for customer in customers:
        key = f"{customer.joined_on.year:04d}-{customer.joined_on.month:02d}"
        months[key] = months.get(key, Decimal("0")) + customer.lifetime_value
    return dict(sorted(months.items()))


def top_customers_by_lifetime_value(customers: Iterable[Customer], n: int = 10) -> list[Customer]:
    return sorted(customers, key=lambda item: (item.lifetime_value, item.email), reverse=True)[:n]


def advance_customer(customer: Customer, new_status: str) -> Customer:
    allowed = {("lead", "active"), ("active", "churned")}
    if (customer.status, new_status) not in allowed:
        raise ValueError(f"cannot move customer from {customer.status} to {new_status}")
    return replace(customer, status=new_status)


# -- Supplier --------------------------------------------------------------------------------------
SUPPLIER_STATUSES = ("prospect", "approved", "blocked")
SUPPLIER_LABELS = {"prospect": "Prospect", "approved": "Approved", "blocked": "Blocked"}


@dataclass
class Supplier:
    vat_number: str
    credit_limit: Decimal
    onboarded_on: date
    open_orders: int = 1
    preferred: bool = True
    status: str = "prospect"


def validate_supplier(supplier: Supplier) -> list[str]:
    errors = []
    if not supplier.vat_number.strip():
        errors.append("vat_number is required")
    if supplier.credit_limit < 0:
        errors.append("credit_limit must not be negative")
    if supplier.open_orders < 1:
        errors.append("open_orders must be at least 1")
    if supplier.status not in SUPPLIER_STATUSES:
        errors.append(f"unknown status {supplier.status!r}")
    return errors


def supplier_age_days(supplier: Supplier, today: date | None = None) -> int:
    today = today or date.today()
    return max(0, (today - supplier.onboarded_on).days)


def supplier_to_row(supplier: Supplier) -> dict[str, str]:
    return {
        "vat_number": supplier.vat_number,
        "credit_limit": f"{supplier.credit_limit:.2f}",
        "onboarded_on": supplier.onboarded_on.isoformat(),
        "open_orders": str(supplier.open_orders),
        "preferred": "yes" if supplier.preferred else "no",
        "status": supplier.status,
    }


def average_open_orders(suppliers: list[Supplier]) -> float:
    if not suppliers:
        return 0.0
    return sum(supplier.open_orders for supplier in suppliers) / len(suppliers)


def top_suppliers_by_credit_limit(suppliers: Iterable[Supplier], n: int = 10) -> list[Supplier]:
    return sorted(suppliers, key=lambda item: (item.credit_limit, item.vat_number), reverse=True)[
        :n
    ]


def suppliers_since(suppliers: Iterable[Supplier], since: date) -> list[Supplier]:
    return sorted(
        (supplier for supplier in suppliers if supplier.onboarded_on >= since),
        key=lambda item: item.onboarded_on,
    )


def credit_limit_by_month(suppliers: Iterable[Supplier]) -> dict[str, Decimal]:
    months: dict[str, Decimal] = {}
    for supplier in suppliers:
        key = f"{supplier.onboarded_on.year:04d}-{supplier.onboarded_on.month:02d}"
        months[key] = months.get(key, Decimal("0")) + supplier.credit_limit
    return dict(sorted(months.items()))


def total_credit_limit(suppliers: Iterable[Supplier], *, only_preferred: bool = False) -> Decimal:
    total = Decimal("0")
    for supplier in suppliers:
        if only_preferred and not supplier.preferred:
            continue
        total += supplier.credit_limit
    return total.quantize(CENT, rounding=ROUND_HALF_UP)


def supplier_status_label(supplier: Supplier) -> str:
    return SUPPLIER_LABELS.get(supplier.status, supplier.status.replace("_", " ").title())


def advance_supplier(supplier: Supplier, new_status: str) -> Supplier:
    allowed = {("prospect", "approved"), ("approved", "blocked")}
    if (supplier.status, new_status) not in allowed:
        raise ValueError(f"cannot move supplier from {supplier.status} to {new_status}")
    return replace(supplier, status=new_status)


def is_large_supplier(supplier: Supplier, limit: Decimal = Decimal("2500.00")) -> bool:
    return supplier.credit_limit >= limit


# -- PurchaseOrder ---------------------------------------------------------------------------------
PURCHASE_ORDER_STATUSES = ("open", "approved", "received", "cancelled")
PURCHASE_ORDER_LABELS = {
    "open": "Open",
    "approved": "Approved",
    "received": "Received",
    "cancelled": "Cancelled",
}


@dataclass
class PurchaseOrder:
    po_number: str
    total_cost: Decimal
    ordered_on: date
    line_items: int = 1
    urgent: bool = False
    status: str = "open"


def validate_purchase_order(purchase_order: PurchaseOrder) -> list[str]:
    errors = []
    if not purchase_order.po_number.strip():
        errors.append("po_number is required")
    if purchase_order.total_cost < 0:
        errors.append("total_cost must not be negative")
    if purchase_order.line_items < 1:
        errors.append("line_items must be at least 1")
    if purchase_order.status not in PURCHASE_ORDER_STATUSES:
        errors.append(f"unknown status {purchase_order.status!r}")
    return errors


def total_cost_by_month(purchase_orders: Iterable[PurchaseOrder]) -> dict[str, Decimal]:
    months: dict[str, Decimal] = {}
    for purchase_order in purchase_orders:
        key = f"{purchase_order.ordered_on.year:04d}-{purchase_order.ordered_on.month:02d}"
        months[key] = months.get(key, Decimal("0")) + purchase_order.total_cost
    return dict(sorted(months.items()))


def advance_purchase_order(purchase_order: PurchaseOrder, new_status: str) -> PurchaseOrder:
    allowed = {("open", "approved"), ("approved", "received"), ("received", "cancelled")}
    if (purchase_order.status, new_status) not in allowed:
        raise ValueError(f"cannot move purchase order from {purchase_order.status} to {new_status}")
    return replace(purchase_order, status=new_status)


class PurchaseOrderStore:
    """In-memory purchase orders keyed by po_number."""

    def __init__(self) -> None:
        self._items: dict[str, PurchaseOrder] = {}

    def add(self, purchase_order: PurchaseOrder) -> None:
        if purchase_order.po_number in self._items:
            raise KeyError(f"duplicate po_number {purchase_order.po_number}")
        self._items[purchase_order.po_number] = purchase_order

    def get(self, key: str) -> PurchaseOrder | None:
        return self._items.get(key)

    def remove(self, key: str) -> PurchaseOrder:
        return self._items.pop(key)

    def __len__(self) -> int:
        return len(self._items)

    def with_status(self, status: str) -> list[PurchaseOrder]:
        return [item for item in self._items.values() if item.status == status]


def summarize_purchase_orders(purchase_orders: list[PurchaseOrder]) -> str:
    if not purchase_orders:
        return "no purchase orders"
    total = sum((purchase_order.total_cost for purchase_order in purchase_orders), Decimal("0"))
    flagged = sum(1 for purchase_order in purchase_orders if purchase_order.urgent)
    return f"{len(purchase_orders)} purchase orders, {total:.2f} in total, {flagged} urgent"


def total_total_cost(
    purchase_orders: Iterable[PurchaseOrder], *, only_urgent: bool = False
) -> Decimal:
    total = Decimal("0")
    for purchase_order in purchase_orders:
        if only_urgent and not purchase_order.urgent:
            continue
        total += purchase_order.total_cost
    return total.quantize(CENT, rounding=ROUND_HALF_UP)


def group_purchase_orders_by_status(
    purchase_orders: Iterable[PurchaseOrder],
) -> dict[str, list[PurchaseOrder]]:
    groups: dict[str, list[PurchaseOrder]] = {status: [] for status in PURCHASE_ORDER_STATUSES}
    for purchase_order in purchase_orders:
        groups.setdefault(purchase_order.status, []).append(purchase_order)
    return groups


def purchase_orders_since(
    purchase_orders: Iterable[PurchaseOrder], since: date
) -> list[PurchaseOrder]:
    return sorted(
        (
            purchase_order
            for purchase_order in purchase_orders
            if purchase_order.ordered_on >= since
        ),
        key=lambda item: item.ordered_on,
    )


def is_large_purchase_order(
    purchase_order: PurchaseOrder, limit: Decimal = Decimal("500.00")
) -> bool:
    return purchase_order.total_cost >= limit


def purchase_order_age_days(purchase_order: PurchaseOrder, today: date | None = None) -> int:
    today = today or date.today()
    return max(0, (today - purchase_order.ordered_on).days)


def average_line_items(purchase_orders: list[PurchaseOrder]) -> float:
    if not purchase_orders:
        return 0.0
    return sum(purchase_order.line_items for purchase_order in purchase_orders) / len(
        purchase_orders
    )


# -- Refund ----------------------------------------------------------------------------------------
REFUND_STATUSES = ("requested", "approved", "rejected", "paid_out")
REFUND_LABELS = {
    "requested": "Requested",
    "approved": "Approved",
    "rejected": "Rejected",
    "paid_out": "Paid out",
}


@dataclass
class Refund:
    reference: str
    refunded_amount: Decimal
    requested_on: date
    item_count: int = 1
    automatic: bool = False
    status: str = "requested"


def validate_refund(refund: Refund) -> list[str]:
    errors = []
    if not refund.reference.strip():
        errors.append("reference is required")
    if refund.refunded_amount < 0:
        errors.append("refunded_amount must not be negative")
    if refund.item_count < 0:
        errors.append("item_count must be at least 0")
    if refund.status not in REFUND_STATUSES:
        errors.append(f"unknown status {refund.status!r}")
    return errors


def summarize_refunds(refunds: list[Refund]) -> str:
    if not refunds:
        return "no refunds"
    total = sum((refund.refunded_amount for refund in refunds), Decimal("0"))
    flagged = sum(1 for refund in refunds if refund.automatic)
    return f"{len(refunds)} refunds, {total:.2f} in total, {flagged} automatic"


def average_item_count(refunds: list[Refund]) -> float:
    if not refunds:
        return 0.0
    return sum(refund.item_count for refund in refunds) / len(refunds)


def top_refunds_by_refunded_amount(refunds: Iterable[Refund], n: int = 10) -> list[Refund]:
    return sorted(refunds, key=lambda item: (item.refunded_amount, item.reference), reverse=True)[
        :n
    ]


def total_refunded_amount(refunds: Iterable[Refund], *, only_automatic: bool = False) -> Decimal:
    total = Decimal("0")
    for refund in refunds:
        if only_automatic and not refund.automatic:
            continue
        total += refund.refunded_amount
    return total.quantize(CENT, rounding=ROUND_HALF_UP)


def refund_to_row(refund: Refund) -> dict[str, str]:
    return {
        "reference": refund.reference,
        "refunded_amount": f"{refund.refunded_amount:.2f}",
        "requested_on": refund.requested_on.isoformat(),
        "item_count": str(refund.item_count),
        "automatic": "yes" if refund.automatic else "no",
        "status": refund.status,
    }


def is_large_refund(refund: Refund, limit: Decimal = Decimal("2500.00")) -> bool:
    return refund.refunded_amount >= limit


def refunded_amount_by_month(refunds: Iterable[Refund]) -> dict[str, Decimal]:
    months: dict[str, Decimal] = {}
    for refund in refunds:
        key = f"{refund.requested_on.year:04d}-{refund.requested_on.month:02d}"
        months[key] = months.get(key, Decimal("0")) + refund.refunded_amount
    return dict(sorted(months.items()))


def split_refunds_by_automatic(refunds: Iterable[Refund]) -> tuple[list[Refund], list[Refund]]:
    yes: list[Refund] = []
    no: list[Refund] = []
    for refund in refunds:
        (yes if refund.automatic else no).append(refund)
    return yes, no


def refund_age_days(refund: Refund, today: date | None = None) -> int:
    today = today or date.today()
    return max(0, (today - refund.requested_on).days)


def refund_from_row(row: dict[str, str]) -> Refund:
    return Refund(
        reference=row["reference"].strip(),
        refunded_amount=Decimal(row["refunded_amount"]),
        requested_on=date.fromisoformat(row["requested_on"]),
        item_count=int(row.get("item_count") or 0),
        automatic=row.get("automatic", "").lower() in TRUTHY,
        status=row.get("status") or "requested",
    )


# -- Subscription ----------------------------------------------------------------------------------
SUBSCRIPTION_STATUSES = ("trialing", "active", "past_due", "cancelled")
SUBSCRIPTION_LABELS = {
    "trialing": "Trialing",
    "active": "Active",
    "past_due": "Past due",
    "cancelled": "Cancelled",
}


@dataclass
class Subscription:
    plan_code: str
    monthly_fee: Decimal
    renews_on: date
    seats: int = 0
    trial: bool = False
    status: str = "trialing"


def validate_subscription(subscription: Subscription) -> list[str]:
    errors = []
    if not subscription.plan_code.strip():
        errors.append("plan_code is required")
    if subscription.monthly_fee < 0:
        errors.append("monthly_fee must not be negative")
    if subscription.seats < 0:
        errors.append("seats must be at least 0")
    if subscription.status not in SUBSCRIPTION_STATUSES:
        errors.append(f"unknown status {subscription.status!r}")
    return errors


def advance_subscription(subscription: Subscription, new_status: str) -> Subscription:
    allowed = {("trialing", "active"), ("active", "past_due"), ("past_due", "cancelled")}
    if (subscription.status, new_status) not in allowed:
        raise ValueError(f"cannot move subscription from {subscription.status} to {new_status}")
    return replace(subscription, status=new_status)


def subscription_from_row(row: dict[str, str]) -> Subscription:
    return Subscription(
        plan_code=row["plan_code"].strip(),
        monthly_fee=Decimal(row["monthly_fee"]),
        renews_on=date.fromisoformat(row["renews_on"]),
        seats=int(row.get("seats") or 0),
        trial=row.get("trial", "").lower() in TRUTHY,
        status=row.get("status") or "trialing",
    )


def split_subscriptions_by_trial(
    subscriptions: Iterable[Subscription],
) -> tuple[list[Subscription], list[Subscription]]:
    yes: list[Subscription] = []
    no: list[Subscription] = []
    for subscription in subscriptions:
        (yes if subscription.trial else no).append(subscription)
    return yes, no


def average_seats(subscriptions: list[Subscription]) -> float:
    if not subscriptions:
        return 0.0
    return sum(subscription.seats for subscription in subscriptions) / len(subscriptions)


def total_monthly_fee(
    subscriptions: Iterable[Subscription], *, only_trial: bool = False
) -> Decimal:
    total = Decimal("0")
    for subscription in subscriptions:
        if only_trial and not subscription.trial:
            continue
        total += subscription.monthly_fee
    return total.quantize(CENT, rounding=ROUND_HALF_UP)


def subscription_status_label(subscription: Subscription) -> str:
    return SUBSCRIPTION_LABELS.get(
        subscription.status, subscription.status.replace("_", " ").title()
    )


class SubscriptionStore:
    """In-memory subscriptions keyed by plan_code."""

    def __init__(self) -> None:
        self._items: dict[str, Subscription] = {}

    def add(self, subscription: Subscription) -> None:
        if subscription.plan_code in self._items:
            raise KeyError(f"duplicate plan_code {subscription.plan_code}")
        self._items[subscription.plan_code] = subscription

    def get(self, key: str) -> Subscription | None:
        return self._items.get(key)

    def remove(self, key: str) -> Subscription:
        return self._items.pop(key)

    def __len__(self) -> int:
        return len(self._items)

    def with_status(self, status: str) -> list[Subscription]:
        return [item for item in self._items.values() if item.status == status]


def monthly_fee_by_month(subscriptions: Iterable[Subscription]) -> dict[str, Decimal]:
    months: dict[str, Decimal] = {}
    for subscription in subscriptions:
        key = f"{subscription.renews_on.year:04d}-{subscription.renews_on.month:02d}"
        months[key] = months.get(key, Decimal("0")) + subscription.monthly_fee
    return dict(sorted(months.items()))


def top_subscriptions_by_monthly_fee(
    subscriptions: Iterable[Subscription], n: int = 3
) -> list[Subscription]:
    return sorted(subscriptions, key=lambda item: (item.monthly_fee, item.plan_code), reverse=True)[
        :n
    ]


def subscription_age_days(subscription: Subscription, today: date | None = None) -> int:
    today = today or date.today()
    return max(0, (today - subscription.renews_on).days)


# -- Payment ---------------------------------------------------------------------------------------
PAYMENT_STATUSES = ("pending", "settled", "failed")
PAYMENT_LABELS = {"pending": "Pending", "settled": "Settled", "failed": "Failed"}


@dataclass
class Payment:
    transaction_id: str
    settled_amount: Decimal
    received_on: date
    attempts: int = 0
    reconciled: bool = False
    status: str = "pending"


def validate_payment(payment: Payment) -> list[str]:
    errors = []
    if not payment.transaction_id.strip():
        errors.append("transaction_id is required")
    if payment.settled_amount < 0:
        errors.append("settled_amount must not be negative")
    if payment.attempts < 1:
        errors.append("attempts must be at least 1")
    if payment.status not in PAYMENT_STATUSES:
        errors.append(f"unknown status {payment.status!r}")
    return errors


def summarize_payments(payments: list[Payment]) -> str:
    if not payments:
        return "no payments"
    total = sum((payment.settled_amount for payment in payments), Decimal("0"))
    flagged = sum(1 for payment in payments if payment.reconciled)
    return f"{len(payments)} payments, {total:.2f} in total, {flagged} reconciled"


class PaymentStore:
    """In-memory payments keyed by transaction_id."""

    def __init__(self) -> None:
        self._items: dict[str, Payment] = {}

    def add(self, payment: Payment) -> None:
        if payment.transaction_id in self._items:
            raise KeyError(f"duplicate transaction_id {payment.transaction_id}")
        self._items[payment.transaction_id] = payment

    def get(self, key: str) -> Payment | None:
        return self._items.get(key)

    def remove(self, key: str) -> Payment:
        return self._items.pop(key)

    def __len__(self) -> int:
        return len(self._items)

    def with_status(self, status: str) -> list[Payment]:
        return [item for item in self._items.values() if item.status == status]


def average_attempts(payments: list[Payment]) -> float:
    if not payments:
        return 0.0
    return sum(payment.attempts for payment in payments) / len(payments)


def payment_age_days(payment: Payment, today: date | None = None) -> int:
    today = today or date.today()
    return max(0, (today - payment.received_on).days)


def total_settled_amount(payments: Iterable[Payment], *, only_reconciled: bool = False) -> Decimal:
    total = Decimal("0")
    for payment in payments:
        if only_reconciled and not payment.reconciled:
            continue
        total += payment.settled_amount
    return total.quantize(CENT, rounding=ROUND_HALF_UP)


def group_payments_by_status(payments: Iterable[Payment]) -> dict[str, list[Payment]]:
    groups: dict[str, list[Payment]] = {status: [] for status in PAYMENT_STATUSES}
    for payment in payments:
        groups.setdefault(payment.status, []).append(payment)
    return groups


def payment_from_row(row: dict[str, str]) -> Payment:
    return Payment(
        transaction_id=row["transaction_id"].strip(),
        settled_amount=Decimal(row["settled_amount"]),
        received_on=date.fromisoformat(row["received_on"]),
        attempts=int(row.get("attempts") or 0),
        reconciled=row.get("reconciled", "").lower() in TRUTHY,
        status=row.get("status") or "pending",
    )


def payment_to_row(payment: Payment) -> dict[str, str]:
    return {
        "transaction_id": payment.transaction_id,
        "settled_amount": f"{payment.settled_amount:.2f}",
        "received_on": payment.received_on.isoformat(),
        "attempts": str(payment.attempts),
        "reconciled": "yes" if payment.reconciled else "no",
        "status": payment.status,
    }


def payment_status_label(payment: Payment) -> str:
    return PAYMENT_LABELS.get(payment.status, payment.status.replace("_", " ").title())


def split_payments_by_reconciled(
    payments: Iterable[Payment],
) -> tuple[list[Payment], list[Payment]]:
    yes: list[Payment] = []
    no: list[Payment] = []
    for payment in payments:
        (yes if payment.reconciled else no).append(payment)
    return yes, no


# -- CreditNote ------------------------------------------------------------------------------------
CREDIT_NOTE_STATUSES = ("open", "applied", "expired")
CREDIT_NOTE_LABELS = {"open": "Open", "applied": "Applied", "expired": "Expired"}


@dataclass
class CreditNote:
    note_number: str
    credit_amount: Decimal
    issued_on: date
    lines: int = 1
    applied: bool = False
    status: str = "open"


def validate_credit_note(credit_note: CreditNote) -> list[str]:
    errors = []
    if not credit_note.note_number.strip():
        errors.append("note_number is required")
    if credit_note.credit_amount < 0:
        errors.append("credit_amount must not be negative")
    if credit_note.lines < 0:
        errors.append("lines must be at least 0")
    if credit_note.status not in CREDIT_NOTE_STATUSES:
        errors.append(f"unknown status {credit_note.status!r}")
    return errors


def credit_note_from_row(row: dict[str, str]) -> CreditNote:
    return CreditNote(
        note_number=row["note_number"].strip(),
        credit_amount=Decimal(row["credit_amount"]),
        issued_on=date.fromisoformat(row["issued_on"]),
        lines=int(row.get("lines") or 0),
        applied=row.get("applied", "").lower() in TRUTHY,
        status=row.get("status") or "open",
    )


def credit_note_status_label(credit_note: CreditNote) -> str:
    return CREDIT_NOTE_LABELS.get(credit_note.status, credit_note.status.replace("_", " ").title())


def total_credit_amount(
    credit_notes: Iterable[CreditNote], *, only_applied: bool = False
) -> Decimal:
    total = Decimal("0")
    for credit_note in credit_notes:
        if only_applied and not credit_note.applied:
            continue
        total += credit_note.credit_amount
    return total.quantize(CENT, rounding=ROUND_HALF_UP)


def advance_credit_note(credit_note: CreditNote, new_status: str) -> CreditNote:
    allowed = {("open", "applied"), ("applied", "expired")}
    if (credit_note.status, new_status) not in allowed:
        raise ValueError(f"cannot move credit note from {credit_note.status} to {new_status}")
    return replace(credit_note, status=new_status)


def top_credit_notes_by_credit_amount(
    credit_notes: Iterable[CreditNote], n: int = 3
) -> list[CreditNote]:
    return sorted(
        credit_notes, key=lambda item: (item.credit_amount, item.note_number), reverse=True
    )[:n]


def split_credit_notes_by_applied(
    credit_notes: Iterable[CreditNote],
) -> tuple[list[CreditNote], list[CreditNote]]:
    yes: list[CreditNote] = []
    no: list[CreditNote] = []
    for credit_note in credit_notes:
        (yes if credit_note.applied else no).append(credit_note)
    return yes, no


class CreditNoteStore:
    """In-memory credit notes keyed by note_number."""

    def __init__(self) -> None:
        self._items: dict[str, CreditNote] = {}

    def add(self, credit_note: CreditNote) -> None:
        if credit_note.note_number in self._items:
            raise KeyError(f"duplicate note_number {credit_note.note_number}")
        self._items[credit_note.note_number] = credit_note

    def get(self, key: str) -> CreditNote | None:
        return self._items.get(key)

    def remove(self, key: str) -> CreditNote:
        return self._items.pop(key)

    def __len__(self) -> int:
        return len(self._items)

    def with_status(self, status: str) -> list[CreditNote]:
        return [item for item in self._items.values() if item.status == status]


def summarize_credit_notes(credit_notes: list[CreditNote]) -> str:
    if not credit_notes:
        return "no credit notes"
    total = sum((credit_note.credit_amount for credit_note in credit_notes), Decimal("0"))
    flagged = sum(1 for credit_note in credit_notes if credit_note.applied)
    return f"{len(credit_notes)} credit notes, {total:.2f} in total, {flagged} applied"


def is_large_credit_note(credit_note: CreditNote, limit: Decimal = Decimal("2500.00")) -> bool:
    return credit_note.credit_amount >= limit


def credit_note_age_days(credit_note: CreditNote, today: date | None = None) -> int:
    today = today or date.today()
    return max(0, (today - credit_note.issued_on).days)


# -- Expense ---------------------------------------------------------------------------------------
EXPENSE_STATUSES = ("submitted", "approved", "rejected", "reimbursed")
EXPENSE_LABELS = {
    "submitted": "Submitted",
    "approved": "Approved",
    "rejected": "Rejected",
    "reimbursed": "Reimbursed",
}


@dataclass
class Expense:
    receipt_id: str
    claimed_amount: Decimal
    incurred_on: date
    attendees: int = 1
    reimbursable: bool = True
    status: str = "submitted"


def validate_expense(expense: Expense) -> list[str]:
    errors = []
    if not expense.receipt_id.strip():
        errors.append("receipt_id is required")
    if expense.claimed_amount < 0:
        errors.append("claimed_amount must not be negative")
    if expense.attendees < 0:
        errors.append("attendees must be at least 0")
    if expense.status not in EXPENSE_STATUSES:
        errors.append(f"unknown status {expense.status!r}")
    return errors


def advance_expense(expense: Expense, new_status: str) -> Expense:
    allowed = {("submitted", "approved"), ("approved", "rejected"), ("rejected", "reimbursed")}
    if (expense.status, new_status) not in allowed:
        raise ValueError(f"cannot move expense from {expense.status} to {new_status}")
    return replace(expense, status=new_status)


def expense_from_row(row: dict[str, str]) -> Expense:
    return Expense(
        receipt_id=row["receipt_id"].strip(),
        claimed_amount=Decimal(row["claimed_amount"]),
        incurred_on=date.fromisoformat(row["incurred_on"]),
        attendees=int(row.get("attendees") or 0),
        reimbursable=row.get("reimbursable", "").lower() in TRUTHY,
        status=row.get("status") or "submitted",
    )


def total_claimed_amount(
    expenses: Iterable[Expense], *, only_reimbursable: bool = False
) -> Decimal:
    total = Decimal("0")
    for expense in expenses:
        if only_reimbursable and not expense.reimbursable:
            continue
        total += expense.claimed_amount
    return total.quantize(CENT, rounding=ROUND_HALF_UP)


def summarize_expenses(expenses: list[Expense]) -> str:
    if not expenses:
        return "no expenses"
    total = sum((expense.claimed_amount for expense in expenses), Decimal("0"))
    flagged = sum(1 for expense in expenses if expense.reimbursable)
    return f"{len(expenses)} expenses, {total:.2f} in total, {flagged} reimbursable"


def expense_to_row(expense: Expense) -> dict[str, str]:
    return {
        "receipt_id": expense.receipt_id,
        "claimed_amount": f"{expense.claimed_amount:.2f}",
        "incurred_on": expense.incurred_on.isoformat(),
        "attendees": str(expense.attendees),
        "reimbursable": "yes" if expense.reimbursable else "no",
        "status": expense.status,
    }


def expenses_since(expenses: Iterable[Expense], since: date) -> list[Expense]:
    return sorted(
        (expense for expense in expenses if expense.incurred_on >= since),
        key=lambda item: item.incurred_on,
    )


def is_large_expense(expense: Expense, limit: Decimal = Decimal("50.00")) -> bool:
    return expense.claimed_amount >= limit


def claimed_amount_by_month(expenses: Iterable[Expense]) -> dict[str, Decimal]:
    months: dict[str, Decimal] = {}
    for expense in expenses:
        key = f"{expense.incurred_on.year:04d}-{expense.incurred_on.month:02d}"
        months[key] = months.get(key, Decimal("0")) + expense.claimed_amount
    return dict(sorted(months.items()))


def group_expenses_by_status(expenses: Iterable[Expense]) -> dict[str, list[Expense]]:
    groups: dict[str, list[Expense]] = {status: [] for status in EXPENSE_STATUSES}
    for expense in expenses:
        groups.setdefault(expense.status, []).append(expense)
    return groups


def top_expenses_by_claimed_amount(expenses: Iterable[Expense], n: int = 5) -> list[Expense]:
    return sorted(expenses, key=lambda item: (item.claimed_amount, item.receipt_id), reverse=True)[
        :n
    ]


# -- Payout ----------------------------------------------------------------------------------------
PAYOUT_STATUSES = ("scheduled", "sent", "failed")
PAYOUT_LABELS = {"scheduled": "Scheduled", "sent": "Sent", "failed": "Failed"}


@dataclass
class Payout:
    batch_id: str
    net_amount: Decimal
    scheduled_on: date
    recipients: int = 1
    manual: bool = True
    status: str = "scheduled"


def validate_payout(payout: Payout) -> list[str]:
    errors = []
    if not payout.batch_id.strip():
        errors.append("batch_id is required")
    if payout.net_amount < 0:
        errors.append("net_amount must not be negative")
    if payout.recipients < 1:
        errors.append("recipients must be at least 1")
    if payout.status not in PAYOUT_STATUSES:
        errors.append(f"unknown status {payout.status!r}")
    return errors


def group_payouts_by_status(payouts: Iterable[Payout]) -> dict[str, list[Payout]]:
    groups: dict[str, list[Payout]] = {status: [] for status in PAYOUT_STATUSES}
    for payout in payouts:
        groups.setdefault(payout.status, []).append(payout)
    return groups


def payout_status_label(payout: Payout) -> str:
    return PAYOUT_LABELS.get(payout.status, payout.status.replace("_", " ").title())


def total_net_amount(payouts: Iterable[Payout], *, only_manual: bool = False) -> Decimal:
    total = Decimal("0")
    for payout in payouts:
        if only_manual and not payout.manual:
            continue
        total += payout.net_amount
    return total.quantize(CENT, rounding=ROUND_HALF_UP)


def payout_age_days(payout: Payout, today: date | None = None) -> int:
    today = today or date.today()
    return max(0, (today - payout.scheduled_on).days)


def average_recipients(payouts: list[Payout]) -> float:
    if not payouts:
        return 0.0
    return sum(payout.recipients for payout in payouts) / len(payouts)


class PayoutStore:
    """In-memory payouts keyed by batch_id."""

    def __init__(self) -> None:
        self._items: dict[str, Payout] = {}

    def add(self, payout: Payout) -> None:
        if payout.batch_id in self._items:
            raise KeyError(f"duplicate batch_id {payout.batch_id}")
        self._items[payout.batch_id] = payout

    def get(self, key: str) -> Payout | None:
        return self._items.get(key)

    def remove(self, key: str) -> Payout:
        return self._items.pop(key)

    def __len__(self) -> int:
        return len(self._items)

    def with_status(self, status: str) -> list[Payout]:
        return [item for item in self._items.values() if item.status == status]


def top_payouts_by_net_amount(payouts: Iterable[Payout], n: int = 5) -> list[Payout]:
    return sorted(payouts, key=lambda item: (item.net_amount, item.batch_id), reverse=True)[:n]


def payout_from_row(row: dict[str, str]) -> Payout:
    return Payout(
        batch_id=row["batch_id"].strip(),
        net_amount=Decimal(row["net_amount"]),
        scheduled_on=date.fromisoformat(row["scheduled_on"]),
        recipients=int(row.get("recipients") or 0),
        manual=row.get("manual", "").lower() in TRUTHY,
        status=row.get("status") or "scheduled",
    )


def payouts_since(payouts: Iterable[Payout], since: date) -> list[Payout]:
    return sorted(
        (payout for payout in payouts if payout.scheduled_on >= since),
        key=lambda item: item.scheduled_on,
    )


def net_amount_by_month(payouts: Iterable[Payout]) -> dict[str, Decimal]:
    months: dict[str, Decimal] = {}
    for payout in payouts:
        key = f"{payout.scheduled_on.year:04d}-{payout.scheduled_on.month:02d}"
        months[key] = months.get(key, Decimal("0")) + payout.net_amount
    return dict(sorted(months.items()))


# -- Quote -----------------------------------------------------------------------------------------
QUOTE_STATUSES = ("draft", "sent", "accepted", "expired")
QUOTE_LABELS = {"draft": "Draft", "sent": "Sent", "accepted": "Accepted", "expired": "Expired"}


@dataclass
class Quote:
    quote_number: str
    quoted_total: Decimal
    valid_until: date
    revision: int = 0
    accepted: bool = False
    status: str = "draft"


def validate_quote(quote: Quote) -> list[str]:
    errors = []
    if not quote.quote_number.strip():
        errors.append("quote_number is required")
    if quote.quoted_total < 0:
        errors.append("quoted_total must not be negative")
    if quote.revision < 1:
        errors.append("revision must be at least 1")
    if quote.status not in QUOTE_STATUSES:
        errors.append(f"unknown status {quote.status!r}")
    return errors


def average_revision(quotes: list[Quote]) -> float:
    if not quotes:
        return 0.0
    return sum(quote.revision for quote in quotes) / len(quotes)


def quote_from_row(row: dict[str, str]) -> Quote:
    return Quote(
        quote_number=row["quote_number"].strip(),
        quoted_total=Decimal(row["quoted_total"]),
        valid_until=date.fromisoformat(row["valid_until"]),
        revision=int(row.get("revision") or 0),
        accepted=row.get("accepted", "").lower() in TRUTHY,
        status=row.get("status") or "draft",
    )


def top_quotes_by_quoted_total(quotes: Iterable[Quote], n: int = 5) -> list[Quote]:
    return sorted(quotes, key=lambda item: (item.quoted_total, item.quote_number), reverse=True)[:n]


def quote_to_row(quote: Quote) -> dict[str, str]:
    return {
        "quote_number": quote.quote_number,
        "quoted_total": f"{quote.quoted_total:.2f}",
        "valid_until": quote.valid_until.isoformat(),
        "revision": str(quote.revision),
        "accepted": "yes" if quote.accepted else "no",
        "status": quote.status,
    }


def quotes_since(quotes: Iterable[Quote], since: date) -> list[Quote]:
    return sorted(
        (quote for quote in quotes if quote.valid_until >= since), key=lambda item: item.valid_until
    )


def quote_age_days(quote: Quote, today: date | None = None) -> int:
    today = today or date.today()
    return max(0, (today - quote.valid_until).days)


def quote_status_label(quote: Quote) -> str:
    return QUOTE_LABELS.get(quote.status, quote.status.replace("_", " ").title())


def summarize_quotes(quotes: list[Quote]) -> str:
    if not quotes:
        return "no quotes"
    total = sum((quote.quoted_total for quote in quotes), Decimal("0"))
    flagged = sum(1 for quote in quotes if quote.accepted)
    return f"{len(quotes)} quotes, {total:.2f} in total, {flagged} accepted"


class QuoteStore:
    """In-memory quotes keyed by quote_number."""

    def __init__(self) -> None:
        self._items: dict[str, Quote] = {}

    def add(self, quote: Quote) -> None:
        if quote.quote_number in self._items:
            raise KeyError(f"duplicate quote_number {quote.quote_number}")
        self._items[quote.quote_number] = quote

    def get(self, key: str) -> Quote | None:
        return self._items.get(key)

    def remove(self, key: str) -> Quote:
        return self._items.pop(key)

    def __len__(self) -> int:
        return len(self._items)

    def with_status(self, status: str) -> list[Quote]:
        return [item for item in self._items.values() if item.status == status]


def group_quotes_by_status(quotes: Iterable[Quote]) -> dict[str, list[Quote]]:
    groups: dict[str, list[Quote]] = {status: [] for status in QUOTE_STATUSES}
    for quote in quotes:
        groups.setdefault(quote.status, []).append(quote)
    return groups


# -- Warehouse -------------------------------------------------------------------------------------
WAREHOUSE_STATUSES = ("planned", "open", "closing")
WAREHOUSE_LABELS = {"planned": "Planned", "open": "Open", "closing": "Closing"}


@dataclass
class Warehouse:
    site_code: str
    storage_cost: Decimal
    opened_on: date
    docks: int = 1
    bonded: bool = False
    status: str = "planned"


def validate_warehouse(warehouse: Warehouse) -> list[str]:
    errors = []
    if not warehouse.site_code.strip():
        errors.append("site_code is required")
    if warehouse.storage_cost < 0:
        errors.append("storage_cost must not be negative")
    if warehouse.docks < 0:
        errors.append("docks must be at least 0")
    if warehouse.status not in WAREHOUSE_STATUSES:
        errors.append(f"unknown status {warehouse.status!r}")
    return errors


def total_storage_cost(warehouses: Iterable[Warehouse], *, only_bonded: bool = False) -> Decimal:
    total = Decimal("0")
    for warehouse in warehouses:
        if only_bonded and not warehouse.bonded:
            continue
        total += warehouse.storage_cost
    return total.quantize(CENT, rounding=ROUND_HALF_UP)


def group_warehouses_by_status(warehouses: Iterable[Warehouse]) -> dict[str, list[Warehouse]]:
    groups: dict[str, list[Warehouse]] = {status: [] for status in WAREHOUSE_STATUSES}
    for warehouse in warehouses:
        groups.setdefault(warehouse.status, []).append(warehouse)
    return groups


def summarize_warehouses(warehouses: list[Warehouse]) -> str:
    if not warehouses:
        return "no warehouses"
    total = sum((warehouse.storage_cost for warehouse in warehouses), Decimal("0"))
    flagged = sum(1 for warehouse in warehouses if warehouse.bonded)
    return f"{len(warehouses)} warehouses, {total:.2f} in total, {flagged} bonded"


def warehouse_status_label(warehouse: Warehouse) -> str:
    return WAREHOUSE_LABELS.get(warehouse.status, warehouse.status.replace("_", " ").title())


def warehouses_since(warehouses: Iterable[Warehouse], since: date) -> list[Warehouse]:
    return sorted(
        (warehouse for warehouse in warehouses if warehouse.opened_on >= since),
        key=lambda item: item.opened_on,
    )


def split_warehouses_by_bonded(
    warehouses: Iterable[Warehouse],
) -> tuple[list[Warehouse], list[Warehouse]]:
    yes: list[Warehouse] = []
    no: list[Warehouse] = []
    for warehouse in warehouses:
        (yes if warehouse.bonded else no).append(warehouse)
    return yes, no


def advance_warehouse(warehouse: Warehouse, new_status: str) -> Warehouse:
    allowed = {("planned", "open"), ("open", "closing")}
    if (warehouse.status, new_status) not in allowed:
        raise ValueError(f"cannot move warehouse from {warehouse.status} to {new_status}")
    return replace(warehouse, status=new_status)


def warehouse_to_row(warehouse: Warehouse) -> dict[str, str]:
    return {
        "site_code": warehouse.site_code,
        "storage_cost": f"{warehouse.storage_cost:.2f}",
        "opened_on": warehouse.opened_on.isoformat(),
        "docks": str(warehouse.docks),
        "bonded": "yes" if warehouse.bonded else "no",
        "status": warehouse.status,
    }


def warehouse_from_row(row: dict[str, str]) -> Warehouse:
    return Warehouse(
        site_code=row["site_code"].strip(),
        storage_cost=Decimal(row["storage_cost"]),
        opened_on=date.fromisoformat(row["opened_on"]),
        docks=int(row.get("docks") or 0),
        bonded=row.get("bonded", "").lower() in TRUTHY,
        status=row.get("status") or "planned",
    )


class WarehouseStore:
    """In-memory warehouses keyed by site_code."""

    def __init__(self) -> None:
        self._items: dict[str, Warehouse] = {}

    def add(self, warehouse: Warehouse) -> None:
        if warehouse.site_code in self._items:
            raise KeyError(f"duplicate site_code {warehouse.site_code}")
        self._items[warehouse.site_code] = warehouse

    def get(self, key: str) -> Warehouse | None:
        return self._items.get(key)

    def remove(self, key: str) -> Warehouse:
        return self._items.pop(key)

    def __len__(self) -> int:
        return len(self._items)

    def with_status(self, status: str) -> list[Warehouse]:
        return [item for item in self._items.values() if item.status == status]


# -- StockTransfer ---------------------------------------------------------------------------------
STOCK_TRANSFER_STATUSES = ("planned", "dispatched", "received")
STOCK_TRANSFER_LABELS = {"planned": "Planned", "dispatched": "Dispatched", "received": "Received"}


@dataclass
class StockTransfer:
    transfer_id: str
    transfer_value: Decimal
    dispatched_on: date
    pallets: int = 1
    cross_border: bool = False
    status: str = "planned"


def validate_stock_transfer(stock_transfer: StockTransfer) -> list[str]:
    errors = []
    if not stock_transfer.transfer_id.strip():
        errors.append("transfer_id is required")
    if stock_transfer.transfer_value < 0:
        errors.append("transfer_value must not be negative")
    if stock_transfer.pallets < 0:
        errors.append("pallets must be at least 0")
    if stock_transfer.status not in STOCK_TRANSFER_STATUSES:
        errors.append(f"unknown status {stock_transfer.status!r}")
    return errors


def split_stock_transfers_by_cross_border(
    stock_transfers: Iterable[StockTransfer],
) -> tuple[list[StockTransfer], list[StockTransfer]]:
    yes: list[StockTransfer] = []
    no: list[StockTransfer] = []
    for stock_transfer in stock_transfers:
        (yes if stock_transfer.cross_border else no).append(stock_transfer)
    return yes, no


def advance_stock_transfer(stock_transfer: StockTransfer, new_status: str) -> StockTransfer:
    allowed = {("planned", "dispatched"), ("dispatched", "received")}
    if (stock_transfer.status, new_status) not in allowed:
        raise ValueError(f"cannot move stock transfer from {stock_transfer.status} to {new_status}")
    return replace(stock_transfer, status=new_status)


def stock_transfer_status_label(stock_transfer: StockTransfer) -> str:
    return STOCK_TRANSFER_LABELS.get(
        stock_transfer.status, stock_transfer.status.replace("_", " ").title()
    )


def top_stock_transfers_by_transfer_value(
    stock_transfers: Iterable[StockTransfer], n: int = 5
) -> list[StockTransfer]:
    return sorted(
        stock_transfers, key=lambda item: (item.transfer_value, item.transfer_id), reverse=True
    )[:n]


def group_stock_transfers_by_status(
    stock_transfers: Iterable[StockTransfer],
) -> dict[str, list[StockTransfer]]:
    groups: dict[str, list[StockTransfer]] = {status: [] for status in STOCK_TRANSFER_STATUSES}
    for stock_transfer in stock_transfers:
        groups.setdefault(stock_transfer.status, []).append(stock_transfer)
    return groups


class StockTransferStore:
    """In-memory stock transfers keyed by transfer_id."""

    def __init__(self) -> None:
        self._items: dict[str, StockTransfer] = {}

    def add(self, stock_transfer: StockTransfer) -> None:
        if stock_transfer.transfer_id in self._items:
            raise KeyError(f"duplicate transfer_id {stock_transfer.transfer_id}")
        self._items[stock_transfer.transfer_id] = stock_transfer

    def get(self, key: str) -> StockTransfer | None:
        return self._items.get(key)

    def remove(self, key: str) -> StockTransfer:
        return self._items.pop(key)

    def __len__(self) -> int:
        return len(self._items)

    def with_status(self, status: str) -> list[StockTransfer]:
        return [item for item in self._items.values() if item.status == status]


def stock_transfers_since(
    stock_transfers: Iterable[StockTransfer], since: date
) -> list[StockTransfer]:
    return sorted(
        (
            stock_transfer
            for stock_transfer in stock_transfers
            if stock_transfer.dispatched_on >= since
        ),
        key=lambda item: item.dispatched_on,
    )


def total_transfer_value(
    stock_transfers: Iterable[StockTransfer], *, only_cross_border: bool = False
) -> Decimal:
    total = Decimal("0")
    for stock_transfer in stock_transfers:
        if only_cross_border and not stock_transfer.cross_border:
            continue
        total += stock_transfer.transfer_value
    return total.quantize(CENT, rounding=ROUND_HALF_UP)


def transfer_value_by_month(stock_transfers: Iterable[StockTransfer]) -> dict[str, Decimal]:
    months: dict[str, Decimal] = {}
    for stock_transfer in stock_transfers:
        key = f"{stock_transfer.dispatched_on.year:04d}-{stock_transfer.dispatched_on.month:02d}"
        months[key] = months.get(key, Decimal("0")) + stock_transfer.transfer_value
    return dict(sorted(months.items()))


def stock_transfer_from_row(row: dict[str, str]) -> StockTransfer:
    return StockTransfer(
        transfer_id=row["transfer_id"].strip(),
        transfer_value=Decimal(row["transfer_value"]),
        dispatched_on=date.fromisoformat(row["dispatched_on"]),
        pallets=int(row.get("pallets") or 0),
        cross_border=row.get("cross_border", "").lower() in TRUTHY,
        status=row.get("status") or "planned",
    )


# -- Timesheet -------------------------------------------------------------------------------------
TIMESHEET_STATUSES = ("open", "submitted", "approved", "locked")
TIMESHEET_LABELS = {
    "open": "Open",
    "submitted": "Submitted",
    "approved": "Approved",
    "locked": "Locked",
}


@dataclass
class Timesheet:
    sheet_id: str
    billable_amount: Decimal
    week_starting: date
    hours: int = 0
    approved: bool = True
    status: str = "open"


def validate_timesheet(timesheet: Timesheet) -> list[str]:
    errors = []
    if not timesheet.sheet_id.strip():
        errors.append("sheet_id is required")
    if timesheet.billable_amount < 0:
        errors.append("billable_amount must not be negative")
    if timesheet.hours < 1:
        errors.append("hours must be at least 1")
    if timesheet.status not in TIMESHEET_STATUSES:
        errors.append(f"unknown status {timesheet.status!r}")
    return errors


def timesheet_to_row(timesheet: Timesheet) -> dict[str, str]:
    return {
        "sheet_id": timesheet.sheet_id,
        "billable_amount": f"{timesheet.billable_amount:.2f}",
        "week_starting": timesheet.week_starting.isoformat(),
        "hours": str(timesheet.hours),
        "approved": "yes" if timesheet.approved else "no",
        "status": timesheet.status,
    }


def split_timesheets_by_approved(
    timesheets: Iterable[Timesheet],
) -> tuple[list[Timesheet], list[Timesheet]]:
    yes: list[Timesheet] = []
    no: list[Timesheet] = []
    for timesheet in timesheets:
        (yes if timesheet.approved else no).append(timesheet)
    return yes, no


def total_billable_amount(
    timesheets: Iterable[Timesheet], *, only_approved: bool = False
) -> Decimal:
    total = Decimal("0")
    for timesheet in timesheets:
        if only_approved and not timesheet.approved:
            continue
        total += timesheet.billable_amount
    return total.quantize(CENT, rounding=ROUND_HALF_UP)


def advance_timesheet(timesheet: Timesheet, new_status: str) -> Timesheet:
    allowed = {("open", "submitted"), ("submitted", "approved"), ("approved", "locked")}
    if (timesheet.status, new_status) not in allowed:
        raise ValueError(f"cannot move timesheet from {timesheet.status} to {new_status}")
    return replace(timesheet, status=new_status)


def is_large_timesheet(timesheet: Timesheet, limit: Decimal = Decimal("2500.00")) -> bool:
    return timesheet.billable_amount >= limit


class TimesheetStore:
    """In-memory timesheets keyed by sheet_id."""

    def __init__(self) -> None:
        self._items: dict[str, Timesheet] = {}

    def add(self, timesheet: Timesheet) -> None:
        if timesheet.sheet_id in self._items:
            raise KeyError(f"duplicate sheet_id {timesheet.sheet_id}")
        self._items[timesheet.sheet_id] = timesheet

    def get(self, key: str) -> Timesheet | None:
        return self._items.get(key)

    def remove(self, key: str) -> Timesheet:
        return self._items.pop(key)

    def __len__(self) -> int:
        return len(self._items)

    def with_status(self, status: str) -> list[Timesheet]:
        return [item for item in self._items.values() if item.status == status]


def timesheet_from_row(row: dict[str, str]) -> Timesheet:
    return Timesheet(
        sheet_id=row["sheet_id"].strip(),
        billable_amount=Decimal(row["billable_amount"]),
        week_starting=date.fromisoformat(row["week_starting"]),
        hours=int(row.get("hours") or 0),
        approved=row.get("approved", "").lower() in TRUTHY,
        status=row.get("status") or "open",
    )


def timesheets_since(timesheets: Iterable[Timesheet], since: date) -> list[Timesheet]:
    return sorted(
        (timesheet for timesheet in timesheets if timesheet.week_starting >= since),
        key=lambda item: item.week_starting,
    )


def group_timesheets_by_status(timesheets: Iterable[Timesheet]) -> dict[str, list[Timesheet]]:
    groups: dict[str, list[Timesheet]] = {status: [] for status in TIMESHEET_STATUSES}
    for timesheet in timesheets:
        groups.setdefault(timesheet.status, []).append(timesheet)
    return groups


def timesheet_status_label(timesheet: Timesheet) -> str:
    return TIMESHEET_LABELS.get(timesheet.status, timesheet.status.replace("_", " ").title())


# -- Contract --------------------------------------------------------------------------------------
CONTRACT_STATUSES = ("negotiating", "signed", "terminated")
CONTRACT_LABELS = {"negotiating": "Negotiating", "signed": "Signed", "terminated": "Terminated"}


@dataclass
class Contract:
    contract_id: str
    annual_value: Decimal
    signed_on: date
    term_months: int = 0
    auto_renew: bool = False
    status: str = "negotiating"


def validate_contract(contract: Contract) -> list[str]:
    errors = []
    if not contract.contract_id.strip():
        errors.append("contract_id is required")
    if contract.annual_value < 0:
        errors.append("annual_value must not be negative")
    if contract.term_months < 0:
        errors.append("term_months must be at least 0")
    if contract.status not in CONTRACT_STATUSES:
        errors.append(f"unknown status {contract.status!r}")
    return errors


def total_annual_value(contracts: Iterable[Contract], *, only_auto_renew: bool = False) -> Decimal:
    total = Decimal("0")
    for contract in contracts:
        if only_auto_renew and not contract.auto_renew:
            continue
        total += contract.annual_value
    return total.quantize(CENT, rounding=ROUND_HALF_UP)


def split_contracts_by_auto_renew(
    contracts: Iterable[Contract],
) -> tuple[list[Contract], list[Contract]]:
    yes: list[Contract] = []
    no: list[Contract] = []
    for contract in contracts:
        (yes if contract.auto_renew else no).append(contract)
    return yes, no


def summarize_contracts(contracts: list[Contract]) -> str:
    if not contracts:
        return "no contracts"
    total = sum((contract.annual_value for contract in contracts), Decimal("0"))
    flagged = sum(1 for contract in contracts if contract.auto_renew)
    return f"{len(contracts)} contracts, {total:.2f} in total, {flagged} auto renew"


def contracts_since(contracts: Iterable[Contract], since: date) -> list[Contract]:
    return sorted(
        (contract for contract in contracts if contract.signed_on >= since),
        key=lambda item: item.signed_on,
    )


def contract_from_row(row: dict[str, str]) -> Contract:
    return Contract(
        contract_id=row["contract_id"].strip(),
        annual_value=Decimal(row["annual_value"]),
        signed_on=date.fromisoformat(row["signed_on"]),
        term_months=int(row.get("term_months") or 0),
        auto_renew=row.get("auto_renew", "").lower() in TRUTHY,
        status=row.get("status") or "negotiating",
    )


def group_contracts_by_status(contracts: Iterable[Contract]) -> dict[str, list[Contract]]:
    groups: dict[str, list[Contract]] = {status: [] for status in CONTRACT_STATUSES}
    for contract in contracts:
        groups.setdefault(contract.status, []).append(contract)
    return groups


def top_contracts_by_annual_value(contracts: Iterable[Contract], n: int = 10) -> list[Contract]:
    return sorted(contracts, key=lambda item: (item.annual_value, item.contract_id), reverse=True)[
        :n
    ]


def average_term_months(contracts: list[Contract]) -> float:
    if not contracts:
        return 0.0
    return sum(contract.term_months for contract in contracts) / len(contracts)


def contract_end(contract: Contract) -> date:
    months = contract.signed_on.month - 1 + contract.term_months
    year = contract.signed_on.year + months // 12
    return date(year, months % 12 + 1, 1) - timedelta(days=1)


def contract_to_row(contract: Contract) -> dict[str, str]:
    return {
        "contract_id": contract.contract_id,
        "annual_value": f"{contract.annual_value:.2f}",
        "signed_on": contract.signed_on.isoformat(),
        "term_months": str(contract.term_months),
        "auto_renew": "yes" if contract.auto_renew else "no",
        "status": contract.status,
    }


def advance_contract(contract: Contract, new_status: str) -> Contract:
    allowed = {("negotiating", "signed"), ("signed", "terminated")}
    if (contract.status, new_status) not in allowed:
        raise ValueError(f"cannot move contract from {contract.status} to {new_status}")
    return replace(contract, status=new_status)


# -- TaxFiling -------------------------------------------------------------------------------------
TAX_FILING_STATUSES = ("preparing", "filed", "accepted")
TAX_FILING_LABELS = {"preparing": "Preparing", "filed": "Filed", "accepted": "Accepted"}


@dataclass
class TaxFiling:
    filing_id: str
    tax_due: Decimal
    period_end: date
    amendments: int = 1
    late: bool = True
    status: str = "preparing"


def validate_tax_filing(tax_filing: TaxFiling) -> list[str]:
    errors = []
    if not tax_filing.filing_id.strip():
        errors.append("filing_id is required")
    if tax_filing.tax_due < 0:
        errors.append("tax_due must not be negative")
    if tax_filing.amendments < 0:
        errors.append("amendments must be at least 0")
    if tax_filing.status not in TAX_FILING_STATUSES:
        errors.append(f"unknown status {tax_filing.status!r}")
    return errors


def tax_filings_since(tax_filings: Iterable[TaxFiling], since: date) -> list[TaxFiling]:
    return sorted(
        (tax_filing for tax_filing in tax_filings if tax_filing.period_end >= since),
        key=lambda item: item.period_end,
    )


def tax_filing_age_days(tax_filing: TaxFiling, today: date | None = None) -> int:
    today = today or date.today()
    return max(0, (today - tax_filing.period_end).days)


def tax_filing_status_label(tax_filing: TaxFiling) -> str:
    return TAX_FILING_LABELS.get(tax_filing.status, tax_filing.status.replace("_", " ").title())


def summarize_tax_filings(tax_filings: list[TaxFiling]) -> str:
    if not tax_filings:
        return "no tax filings"
    total = sum((tax_filing.tax_due for tax_filing in tax_filings), Decimal("0"))
    flagged = sum(1 for tax_filing in tax_filings if tax_filing.late)
    return f"{len(tax_filings)} tax filings, {total:.2f} in total, {flagged} late"


def is_large_tax_filing(tax_filing: TaxFiling, limit: Decimal = Decimal("2500.00")) -> bool:
    return tax_filing.tax_due >= limit


def tax_due_by_month(tax_filings: Iterable[TaxFiling]) -> dict[str, Decimal]:
    months: dict[str, Decimal] = {}
    for tax_filing in tax_filings:
        key = f"{tax_filing.period_end.year:04d}-{tax_filing.period_end.month:02d}"
        months[key] = months.get(key, Decimal("0")) + tax_filing.tax_due
    return dict(sorted(months.items()))


def tax_filing_from_row(row: dict[str, str]) -> TaxFiling:
    return TaxFiling(
        filing_id=row["filing_id"].strip(),
        tax_due=Decimal(row["tax_due"]),
        period_end=date.fromisoformat(row["period_end"]),
        amendments=int(row.get("amendments") or 0),
        late=row.get("late", "").lower() in TRUTHY,
        status=row.get("status") or "preparing",
    )


def total_tax_due(tax_filings: Iterable[TaxFiling], *, only_late: bool = False) -> Decimal:
    total = Decimal("0")
    for tax_filing in tax_filings:
        if only_late and not tax_filing.late:
            continue
        total += tax_filing.tax_due
    return total.quantize(CENT, rounding=ROUND_HALF_UP)


def tax_filing_to_row(tax_filing: TaxFiling) -> dict[str, str]:
    return {
        "filing_id": tax_filing.filing_id,
        "tax_due": f"{tax_filing.tax_due:.2f}",
        "period_end": tax_filing.period_end.isoformat(),
        "amendments": str(tax_filing.amendments),
        "late": "yes" if tax_filing.late else "no",
        "status": tax_filing.status,
    }


def split_tax_filings_by_late(
    tax_filings: Iterable[TaxFiling],
) -> tuple[list[TaxFiling], list[TaxFiling]]:
    yes: list[TaxFiling] = []
    no: list[TaxFiling] = []
    for tax_filing in tax_filings:
        (yes if tax_filing.late else no).append(tax_filing)
    return yes, no


# -- LoyaltyAccount --------------------------------------------------------------------------------
LOYALTY_ACCOUNT_STATUSES = ("basic", "silver", "gold")
LOYALTY_ACCOUNT_LABELS = {"basic": "Basic", "silver": "Silver", "gold": "Gold"}


@dataclass
class LoyaltyAccount:
    member_id: str
    points_value: Decimal
    enrolled_on: date
    tier_level: int = 0
    frozen: bool = False
    status: str = "basic"


def validate_loyalty_account(loyalty_account: LoyaltyAccount) -> list[str]:
    errors = []
    if not loyalty_account.member_id.strip():
        errors.append("member_id is required")
    if loyalty_account.points_value < 0:
        errors.append("points_value must not be negative")
    if loyalty_account.tier_level < 1:
        errors.append("tier_level must be at least 1")
    if loyalty_account.status not in LOYALTY_ACCOUNT_STATUSES:
        errors.append(f"unknown status {loyalty_account.status!r}")
    return errors


def advance_loyalty_account(loyalty_account: LoyaltyAccount, new_status: str) -> LoyaltyAccount:
    allowed = {("basic", "silver"), ("silver", "gold")}
    if (loyalty_account.status, new_status) not in allowed:
        raise ValueError(
            f"cannot move loyalty account from {loyalty_account.status} to {new_status}"
        )
    return replace(loyalty_account, status=new_status)


def loyalty_account_age_days(loyalty_account: LoyaltyAccount, today: date | None = None) -> int:
    today = today or date.today()
    return max(0, (today - loyalty_account.enrolled_on).days)


def loyalty_account_from_row(row: dict[str, str]) -> LoyaltyAccount:
    return LoyaltyAccount(
        member_id=row["member_id"].strip(),
        points_value=Decimal(row["points_value"]),
        enrolled_on=date.fromisoformat(row["enrolled_on"]),
        tier_level=int(row.get("tier_level") or 0),
        frozen=row.get("frozen", "").lower() in TRUTHY,
        status=row.get("status") or "basic",
    )


def split_loyalty_accounts_by_frozen(
    loyalty_accounts: Iterable[LoyaltyAccount],
) -> tuple[list[LoyaltyAccount], list[LoyaltyAccount]]:
    yes: list[LoyaltyAccount] = []
    no: list[LoyaltyAccount] = []
    for loyalty_account in loyalty_accounts:
        (yes if loyalty_account.frozen else no).append(loyalty_account)
    return yes, no


def points_value_by_month(loyalty_accounts: Iterable[LoyaltyAccount]) -> dict[str, Decimal]:
    months: dict[str, Decimal] = {}
    for loyalty_account in loyalty_accounts:
        key = f"{loyalty_account.enrolled_on.year:04d}-{loyalty_account.enrolled_on.month:02d}"
        months[key] = months.get(key, Decimal("0")) + loyalty_account.points_value
    return dict(sorted(months.items()))


def loyalty_accounts_since(
    loyalty_accounts: Iterable[LoyaltyAccount], since: date
) -> list[LoyaltyAccount]:
    return sorted(
        (
            loyalty_account
            for loyalty_account in loyalty_accounts
            if loyalty_account.enrolled_on >= since
        ),
        key=lambda item: item.enrolled_on,
    )


class LoyaltyAccountStore:
    """In-memory loyalty accounts keyed by member_id."""

    def __init__(self) -> None:
        self._items: dict[str, LoyaltyAccount] = {}

    def add(self, loyalty_account: LoyaltyAccount) -> None:
        if loyalty_account.member_id in self._items:
            raise KeyError(f"duplicate member_id {loyalty_account.member_id}")
        self._items[loyalty_account.member_id] = loyalty_account

    def get(self, key: str) -> LoyaltyAccount | None:
        return self._items.get(key)

    def remove(self, key: str) -> LoyaltyAccount:
        return self._items.pop(key)

    def __len__(self) -> int:
        return len(self._items)

    def with_status(self, status: str) -> list[LoyaltyAccount]:
        return [item for item in self._items.values() if item.status == status]


def top_loyalty_accounts_by_points_value(
    loyalty_accounts: Iterable[LoyaltyAccount], n: int = 5
) -> list[LoyaltyAccount]:
    return sorted(
        loyalty_accounts, key=lambda item: (item.points_value, item.member_id), reverse=True
    )[:n]


def loyalty_account_to_row(loyalty_account: LoyaltyAccount) -> dict[str, str]:
    return {
        "member_id": loyalty_account.member_id,
        "points_value": f"{loyalty_account.points_value:.2f}",
        "enrolled_on": loyalty_account.enrolled_on.isoformat(),
        "tier_level": str(loyalty_account.tier_level),
        "frozen": "yes" if loyalty_account.frozen else "no",
        "status": loyalty_account.status,
    }


def is_large_loyalty_account(
    loyalty_account: LoyaltyAccount, limit: Decimal = Decimal("1000.00")
) -> bool:
    return loyalty_account.points_value >= limit


# -- Voucher ---------------------------------------------------------------------------------------
VOUCHER_STATUSES = ("issued", "redeemed", "expired")
VOUCHER_LABELS = {"issued": "Issued", "redeemed": "Redeemed", "expired": "Expired"}


@dataclass
class Voucher:
    code: str
    face_value: Decimal
    expires_on: date
    uses_left: int = 1
    single_use: bool = False
    status: str = "issued"


def validate_voucher(voucher: Voucher) -> list[str]:
    errors = []
    if not voucher.code.strip():
        errors.append("code is required")
    if voucher.face_value < 0:
        errors.append("face_value must not be negative")
    if voucher.uses_left < 0:
        errors.append("uses_left must be at least 0")
    if voucher.status not in VOUCHER_STATUSES:
        errors.append(f"unknown status {voucher.status!r}")
    return errors


def group_vouchers_by_status(vouchers: Iterable[Voucher]) -> dict[str, list[Voucher]]:
    groups: dict[str, list[Voucher]] = {status: [] for status in VOUCHER_STATUSES}
    for voucher in vouchers:
        groups.setdefault(voucher.status, []).append(voucher)
    return groups


def average_uses_left(vouchers: list[Voucher]) -> float:
    if not vouchers:
        return 0.0
    return sum(voucher.uses_left for voucher in vouchers) / len(vouchers)


def total_face_value(vouchers: Iterable[Voucher], *, only_single_use: bool = False) -> Decimal:
    total = Decimal("0")
    for voucher in vouchers:
        if only_single_use and not voucher.single_use:
            continue
        total += voucher.face_value
    return total.quantize(CENT, rounding=ROUND_HALF_UP)


def vouchers_since(vouchers: Iterable[Voucher], since: date) -> list[Voucher]:
    return sorted(
        (voucher for voucher in vouchers if voucher.expires_on >= since),
        key=lambda item: item.expires_on,
    )


def split_vouchers_by_single_use(
    vouchers: Iterable[Voucher],
) -> tuple[list[Voucher], list[Voucher]]:
    yes: list[Voucher] = []
    no: list[Voucher] = []
    for voucher in vouchers:
        (yes if voucher.single_use else no).append(voucher)
    return yes, no


def top_vouchers_by_face_value(vouchers: Iterable[Voucher], n: int = 5) -> list[Voucher]:
    return sorted(vouchers, key=lambda item: (item.face_value, item.code), reverse=True)[:n]


def voucher_age_days(voucher: Voucher, today: date | None = None) -> int:
    today = today or date.today()
    return max(0, (today - voucher.expires_on).days)


def is_large_voucher(voucher: Voucher, limit: Decimal = Decimal("100.00")) -> bool:
    return voucher.face_value >= limit


def voucher_is_usable(voucher: Voucher, today: date) -> bool:
    if voucher.status != "issued" or voucher.expires_on < today:
        return False
    return voucher.uses_left > 0 or not voucher.single_use


def voucher_status_label(voucher: Voucher) -> str:
    return VOUCHER_LABELS.get(voucher.status, voucher.status.replace("_", " ").title())


def advance_voucher(voucher: Voucher, new_status: str) -> Voucher:
    allowed = {("issued", "redeemed"), ("redeemed", "expired")}
    if (voucher.status, new_status) not in allowed:
        raise ValueError(f"cannot move voucher from {voucher.status} to {new_status}")
    return replace(voucher, status=new_status)


# -- Rental ----------------------------------------------------------------------------------------
RENTAL_STATUSES = ("booked", "active", "closed")
RENTAL_LABELS = {"booked": "Booked", "active": "Active", "closed": "Closed"}


@dataclass
class Rental:
    agreement_id: str
    deposit: Decimal
    starts_on: date
    days_booked: int = 1
    returned: bool = False
    status: str = "booked"


def validate_rental(rental: Rental) -> list[str]:
    errors = []
    if not rental.agreement_id.strip():
        errors.append("agreement_id is required")
    if rental.deposit < 0:
        errors.append("deposit must not be negative")
    if rental.days_booked < 0:
        errors.append("days_booked must be at least 0")
    if rental.status not in RENTAL_STATUSES:
        errors.append(f"unknown status {rental.status!r}")
    return errors


def total_deposit(rentals: Iterable[Rental], *, only_returned: bool = False) -> Decimal:
    total = Decimal("0")
    for rental in rentals:
        if only_returned and not rental.returned:
            continue
        total += rental.deposit
    return total.quantize(CENT, rounding=ROUND_HALF_UP)


def advance_rental(rental: Rental, new_status: str) -> Rental:
    allowed = {("booked", "active"), ("active", "closed")}
    if (rental.status, new_status) not in allowed:
        raise ValueError(f"cannot move rental from {rental.status} to {new_status}")
    return replace(rental, status=new_status)


def group_rentals_by_status(rentals: Iterable[Rental]) -> dict[str, list[Rental]]:
    groups: dict[str, list[Rental]] = {status: [] for status in RENTAL_STATUSES}
    for rental in rentals:
        groups.setdefault(rental.status, []).append(rental)
    return groups


class RentalStore:
    """In-memory rentals keyed by agreement_id."""

    def __init__(self) -> None:
        self._items: dict[str, Rental] = {}

    def add(self, rental: Rental) -> None:
        if rental.agreement_id in self._items:
            raise KeyError(f"duplicate agreement_id {rental.agreement_id}")
        self._items[rental.agreement_id] = rental

    def get(self, key: str) -> Rental | None:
        return self._items.get(key)

    def remove(self, key: str) -> Rental:
        return self._items.pop(key)

    def __len__(self) -> int:
        return len(self._items)

    def with_status(self, status: str) -> list[Rental]:
        return [item for item in self._items.values() if item.status == status]


def deposit_by_month(rentals: Iterable[Rental]) -> dict[str, Decimal]:
    months: dict[str, Decimal] = {}
    for rental in rentals:
        key = f"{rental.starts_on.year:04d}-{rental.starts_on.month:02d}"
        months[key] = months.get(key, Decimal("0")) + rental.deposit
    return dict(sorted(months.items()))


def split_rentals_by_returned(rentals: Iterable[Rental]) -> tuple[list[Rental], list[Rental]]:
    yes: list[Rental] = []
    no: list[Rental] = []
    for rental in rentals:
        (yes if rental.returned else no).append(rental)
    return yes, no


def summarize_rentals(rentals: list[Rental]) -> str:
    if not rentals:
        return "no rentals"
    total = sum((rental.deposit for rental in rentals), Decimal("0"))
    flagged = sum(1 for rental in rentals if rental.returned)
    return f"{len(rentals)} rentals, {total:.2f} in total, {flagged} returned"


def rental_late_fee(rental: Rental, returned_on: date) -> Decimal:
    due = rental.starts_on + timedelta(days=rental.days_booked)
    days_late = (returned_on - due).days
    if days_late <= 2:
        return Decimal("0.00")
    fee = Decimal("15.00") * days_late
    return min(fee, rental.deposit)


def rentals_since(rentals: Iterable[Rental], since: date) -> list[Rental]:
    return sorted(
        (rental for rental in rentals if rental.starts_on >= since), key=lambda item: item.starts_on
    )


def rental_status_label(rental: Rental) -> str:
    return RENTAL_LABELS.get(rental.status, rental.status.replace("_", " ").title())


def top_rentals_by_deposit(rentals: Iterable[Rental], n: int = 10) -> list[Rental]:
    return sorted(rentals, key=lambda item: (item.deposit, item.agreement_id), reverse=True)[:n]


# -- Chargeback ------------------------------------------------------------------------------------
CHARGEBACK_STATUSES = ("open", "under_review", "won", "lost")
CHARGEBACK_LABELS = {"open": "Open", "under_review": "Under review", "won": "Won", "lost": "Lost"}


@dataclass
class Chargeback:
    case_id: str
    disputed_amount: Decimal
    opened_on: date
    evidence_files: int = 1
    won: bool = False
    status: str = "open"


def validate_chargeback(chargeback: Chargeback) -> list[str]:
    errors = []
    if not chargeback.case_id.strip():
        errors.append("case_id is required")
    if chargeback.disputed_amount < 0:
        errors.append("disputed_amount must not be negative")
    if chargeback.evidence_files < 0:
        errors.append("evidence_files must be at least 0")
    if chargeback.status not in CHARGEBACK_STATUSES:
        errors.append(f"unknown status {chargeback.status!r}")
    return errors


class ChargebackStore:
    """In-memory chargebacks keyed by case_id."""

    def __init__(self) -> None:
        self._items: dict[str, Chargeback] = {}

    def add(self, chargeback: Chargeback) -> None:
        if chargeback.case_id in self._items:
            raise KeyError(f"duplicate case_id {chargeback.case_id}")
        self._items[chargeback.case_id] = chargeback

    def get(self, key: str) -> Chargeback | None:
        return self._items.get(key)

    def remove(self, key: str) -> Chargeback:
        return self._items.pop(key)

    def __len__(self) -> int:
        return len(self._items)

    def with_status(self, status: str) -> list[Chargeback]:
        return [item for item in self._items.values() if item.status == status]


def split_chargebacks_by_won(
    chargebacks: Iterable[Chargeback],
) -> tuple[list[Chargeback], list[Chargeback]]:
    yes: list[Chargeback] = []
    no: list[Chargeback] = []
    for chargeback in chargebacks:
        (yes if chargeback.won else no).append(chargeback)
    return yes, no


def chargeback_from_row(row: dict[str, str]) -> Chargeback:
    return Chargeback(
        case_id=row["case_id"].strip(),
        disputed_amount=Decimal(row["disputed_amount"]),
        opened_on=date.fromisoformat(row["opened_on"]),
        evidence_files=int(row.get("evidence_files") or 0),
        won=row.get("won", "").lower() in TRUTHY,
        status=row.get("status") or "open",
    )


def is_large_chargeback(chargeback: Chargeback, limit: Decimal = Decimal("50.00")) -> bool:
    return chargeback.disputed_amount >= limit


def group_chargebacks_by_status(chargebacks: Iterable[Chargeback]) -> dict[str, list[Chargeback]]:
    groups: dict[str, list[Chargeback]] = {status: [] for status in CHARGEBACK_STATUSES}
    for chargeback in chargebacks:
        groups.setdefault(chargeback.status, []).append(chargeback)
    return groups


def chargeback_age_days(chargeback: Chargeback, today: date | None = None) -> int:
    today = today or date.today()
    return max(0, (today - chargeback.opened_on).days)


def disputed_amount_by_month(chargebacks: Iterable[Chargeback]) -> dict[str, Decimal]:
    months: dict[str, Decimal] = {}
    for chargeback in chargebacks:
        key = f"{chargeback.opened_on.year:04d}-{chargeback.opened_on.month:02d}"
        months[key] = months.get(key, Decimal("0")) + chargeback.disputed_amount
    return dict(sorted(months.items()))


def summarize_chargebacks(chargebacks: list[Chargeback]) -> str:
    if not chargebacks:
        return "no chargebacks"
    total = sum((chargeback.disputed_amount for chargeback in chargebacks), Decimal("0"))
    flagged = sum(1 for chargeback in chargebacks if chargeback.won)
    return f"{len(chargebacks)} chargebacks, {total:.2f} in total, {flagged} won"


def average_evidence_files(chargebacks: list[Chargeback]) -> float:
    if not chargebacks:
        return 0.0
    return sum(chargeback.evidence_files for chargeback in chargebacks) / len(chargebacks)


def chargeback_to_row(chargeback: Chargeback) -> dict[str, str]:
    return {
        "case_id": chargeback.case_id,
        "disputed_amount": f"{chargeback.disputed_amount:.2f}",
        "opened_on": chargeback.opened_on.isoformat(),
        "evidence_files": str(chargeback.evidence_files),
        "won": "yes" if chargeback.won else "no",
        "status": chargeback.status,
    }


# -- BankTransfer ----------------------------------------------------------------------------------
BANK_TRANSFER_STATUSES = ("queued", "sent", "bounced")
BANK_TRANSFER_LABELS = {"queued": "Queued", "sent": "Sent", "bounced": "Bounced"}


@dataclass
class BankTransfer:
    iban_reference: str
    transfer_amount: Decimal
    value_date: date
    retries: int = 1
    instant: bool = True
    status: str = "queued"


def validate_bank_transfer(bank_transfer: BankTransfer) -> list[str]:
    errors = []
    if not bank_transfer.iban_reference.strip():
        errors.append("iban_reference is required")
    if bank_transfer.transfer_amount < 0:
        errors.append("transfer_amount must not be negative")
    if bank_transfer.retries < 1:
        errors.append("retries must be at least 1")
    if bank_transfer.status not in BANK_TRANSFER_STATUSES:
        errors.append(f"unknown status {bank_transfer.status!r}")
    return errors


class BankTransferStore:
    """In-memory bank transfers keyed by iban_reference."""

    def __init__(self) -> None:
        self._items: dict[str, BankTransfer] = {}

    def add(self, bank_transfer: BankTransfer) -> None:
        if bank_transfer.iban_reference in self._items:
            raise KeyError(f"duplicate iban_reference {bank_transfer.iban_reference}")
        self._items[bank_transfer.iban_reference] = bank_transfer

    def get(self, key: str) -> BankTransfer | None:
        return self._items.get(key)

    def remove(self, key: str) -> BankTransfer:
        return self._items.pop(key)

    def __len__(self) -> int:
        return len(self._items)

    def with_status(self, status: str) -> list[BankTransfer]:
        return [item for item in self._items.values() if item.status == status]


def top_bank_transfers_by_transfer_amount(
    bank_transfers: Iterable[BankTransfer], n: int = 5
) -> list[BankTransfer]:
    return sorted(
        bank_transfers, key=lambda item: (item.transfer_amount, item.iban_reference), reverse=True
    )[:n]


def group_bank_transfers_by_status(
    bank_transfers: Iterable[BankTransfer],
) -> dict[str, list[BankTransfer]]:
    groups: dict[str, list[BankTransfer]] = {status: [] for status in BANK_TRANSFER_STATUSES}
    for bank_transfer in bank_transfers:
        groups.setdefault(bank_transfer.status, []).append(bank_transfer)
    return groups


def bank_transfer_status_label(bank_transfer: BankTransfer) -> str:
    return BANK_TRANSFER_LABELS.get(
        bank_transfer.status, bank_transfer.status.replace("_", " ").title()
    )


def advance_bank_transfer(bank_transfer: BankTransfer, new_status: str) -> BankTransfer:
    allowed = {("queued", "sent"), ("sent", "bounced")}
    if (bank_transfer.status, new_status) not in allowed:
        raise ValueError(f"cannot move bank transfer from {bank_transfer.status} to {new_status}")
    return replace(bank_transfer, status=new_status)


def transfer_amount_by_month(bank_transfers: Iterable[BankTransfer]) -> dict[str, Decimal]:
    months: dict[str, Decimal] = {}
    for bank_transfer in bank_transfers:
        key = f"{bank_transfer.value_date.year:04d}-{bank_transfer.value_date.month:02d}"
        months[key] = months.get(key, Decimal("0")) + bank_transfer.transfer_amount
    return dict(sorted(months.items()))


def total_transfer_amount(
    bank_transfers: Iterable[BankTransfer], *, only_instant: bool = False
) -> Decimal:
    total = Decimal("0")
    for bank_transfer in bank_transfers:
        if only_instant and not bank_transfer.instant:
            continue
        total += bank_transfer.transfer_amount
    return total.quantize(CENT, rounding=ROUND_HALF_UP)


def summarize_bank_transfers(bank_transfers: list[BankTransfer]) -> str:
    if not bank_transfers:
        return "no bank transfers"
    total = sum((bank_transfer.transfer_amount for bank_transfer in bank_transfers), Decimal("0"))
    flagged = sum(1 for bank_transfer in bank_transfers if bank_transfer.instant)
    return f"{len(bank_transfers)} bank transfers, {total:.2f} in total, {flagged} instant"


def split_bank_transfers_by_instant(
    bank_transfers: Iterable[BankTransfer],
) -> tuple[list[BankTransfer], list[BankTransfer]]:
    yes: list[BankTransfer] = []
    no: list[BankTransfer] = []
    for bank_transfer in bank_transfers:
        (yes if bank_transfer.instant else no).append(bank_transfer)
    return yes, no


def is_large_bank_transfer(bank_transfer: BankTransfer, limit: Decimal = Decimal("500.00")) -> bool:
    return bank_transfer.transfer_amount >= limit


# -- Budget ----------------------------------------------------------------------------------------
BUDGET_STATUSES = ("draft", "approved", "closed")
BUDGET_LABELS = {"draft": "Draft", "approved": "Approved", "closed": "Closed"}


@dataclass
class Budget:
    cost_center: str
    allocated: Decimal
    fiscal_start: date
    headcount: int = 1
    locked: bool = True
    status: str = "draft"


def validate_budget(budget: Budget) -> list[str]:
    errors = []
    if not budget.cost_center.strip():
        errors.append("cost_center is required")
    if budget.allocated < 0:
        errors.append("allocated must not be negative")
    if budget.headcount < 1:
        errors.append("headcount must be at least 1")
    if budget.status not in BUDGET_STATUSES:
        errors.append(f"unknown status {budget.status!r}")
    return errors


def budgets_since(budgets: Iterable[Budget], since: date) -> list[Budget]:
    return sorted(
        (budget for budget in budgets if budget.fiscal_start >= since),
        key=lambda item: item.fiscal_start,
    )


def average_headcount(budgets: list[Budget]) -> float:
    if not budgets:
        return 0.0
    return sum(budget.headcount for budget in budgets) / len(budgets)


def is_large_budget(budget: Budget, limit: Decimal = Decimal("2500.00")) -> bool:
    return budget.allocated >= limit


def allocated_by_month(budgets: Iterable[Budget]) -> dict[str, Decimal]:
    months: dict[str, Decimal] = {}
    for budget in budgets:
        key = f"{budget.fiscal_start.year:04d}-{budget.fiscal_start.month:02d}"
        months[key] = months.get(key, Decimal("0")) + budget.allocated
    return dict(sorted(months.items()))


class BudgetStore:
    """In-memory budgets keyed by cost_center."""

    def __init__(self) -> None:
        self._items: dict[str, Budget] = {}

    def add(self, budget: Budget) -> None:
        if budget.cost_center in self._items:
            raise KeyError(f"duplicate cost_center {budget.cost_center}")
        self._items[budget.cost_center] = budget

    def get(self, key: str) -> Budget | None:
        return self._items.get(key)

    def remove(self, key: str) -> Budget:
        return self._items.pop(key)

    def __len__(self) -> int:
        return len(self._items)

    def with_status(self, status: str) -> list[Budget]:
        return [item for item in self._items.values() if item.status == status]


def split_budgets_by_locked(budgets: Iterable[Budget]) -> tuple[list[Budget], list[Budget]]:
    yes: list[Budget] = []
    no: list[Budget] = []
    for budget in budgets:
        (yes if budget.locked else no).append(budget)
    return yes, no


def top_budgets_by_allocated(budgets: Iterable[Budget], n: int = 3) -> list[Budget]:
    return sorted(budgets, key=lambda item: (item.allocated, item.cost_center), reverse=True)[:n]


def budget_to_row(budget: Budget) -> dict[str, str]:
    return {
        "cost_center": budget.cost_center,
        "allocated": f"{budget.allocated:.2f}",
        "fiscal_start": budget.fiscal_start.isoformat(),
        "headcount": str(budget.headcount),
        "locked": "yes" if budget.locked else "no",
        "status": budget.status,
    }


def budget_status_label(budget: Budget) -> str:
    return BUDGET_LABELS.get(budget.status, budget.status.replace("_", " ").title())


def advance_budget(budget: Budget, new_status: str) -> Budget:
    allowed = {("draft", "approved"), ("approved", "closed")}
    if (budget.status, new_status) not in allowed:
        raise ValueError(f"cannot move budget from {budget.status} to {new_status}")
    return replace(budget, status=new_status)


# -- Asset -----------------------------------------------------------------------------------------
ASSET_STATUSES = ("in_use", "in_repair", "disposed")
ASSET_LABELS = {"in_use": "In use", "in_repair": "In repair", "disposed": "Disposed"}


@dataclass
class Asset:
    tag: str
    book_value: Decimal
    acquired_on: date
    useful_life_years: int = 0
    leased: bool = True
    status: str = "in_use"


def validate_asset(asset: Asset) -> list[str]:
    errors = []
    if not asset.tag.strip():
        errors.append("tag is required")
    if asset.book_value < 0:
        errors.append("book_value must not be negative")
    if asset.useful_life_years < 0:
        errors.append("useful_life_years must be at least 0")
    if asset.status not in ASSET_STATUSES:
        errors.append(f"unknown status {asset.status!r}")
    return errors


def assets_since(assets: Iterable[Asset], since: date) -> list[Asset]:
    return sorted(
        (asset for asset in assets if asset.acquired_on >= since), key=lambda item: item.acquired_on
    )


def asset_from_row(row: dict[str, str]) -> Asset:
    return Asset(
        tag=row["tag"].strip(),
        book_value=Decimal(row["book_value"]),
        acquired_on=date.fromisoformat(row["acquired_on"]),
        useful_life_years=int(row.get("useful_life_years") or 0),
        leased=row.get("leased", "").lower() in TRUTHY,
        status=row.get("status") or "in_use",
    )


def advance_asset(asset: Asset, new_status: str) -> Asset:
    allowed = {("in_use", "in_repair"), ("in_repair", "disposed")}
    if (asset.status, new_status) not in allowed:
        raise ValueError(f"cannot move asset from {asset.status} to {new_status}")
    return replace(asset, status=new_status)


def total_book_value(assets: Iterable[Asset], *, only_leased: bool = False) -> Decimal:
    total = Decimal("0")
    for asset in assets:
        if only_leased and not asset.leased:
            continue
        total += asset.book_value
    return total.quantize(CENT, rounding=ROUND_HALF_UP)


def is_large_asset(asset: Asset, limit: Decimal = Decimal("10000.00")) -> bool:
    return asset.book_value >= limit


def asset_to_row(asset: Asset) -> dict[str, str]:
    return {
        "tag": asset.tag,
        "book_value": f"{asset.book_value:.2f}",
        "acquired_on": asset.acquired_on.isoformat(),
        "useful_life_years": str(asset.useful_life_years),
        "leased": "yes" if asset.leased else "no",
        "status": asset.status,
    }


def book_value_by_month(assets: Iterable[Asset]) -> dict[str, Decimal]:
    months: dict[str, Decimal] = {}
    for asset in assets:
        key = f"{asset.acquired_on.year:04d}-{asset.acquired_on.month:02d}"
        months[key] = months.get(key, Decimal("0")) + asset.book_value
    return dict(sorted(months.items()))


def split_assets_by_leased(assets: Iterable[Asset]) -> tuple[list[Asset], list[Asset]]:
    yes: list[Asset] = []
    no: list[Asset] = []
    for asset in assets:
        (yes if asset.leased else no).append(asset)
    return yes, no


def average_useful_life_years(assets: list[Asset]) -> float:
    if not assets:
        return 0.0
    return sum(asset.useful_life_years for asset in assets) / len(assets)


def summarize_assets(assets: list[Asset]) -> str:
    if not assets:
        return "no assets"
    total = sum((asset.book_value for asset in assets), Decimal("0"))
    flagged = sum(1 for asset in assets if asset.leased)
    return f"{len(assets)} assets, {total:.2f} in total, {flagged} leased"


# -- Commission ------------------------------------------------------------------------------------
COMMISSION_STATUSES = ("accrued", "approved", "paid")
COMMISSION_LABELS = {"accrued": "Accrued", "approved": "Approved", "paid": "Paid"}


@dataclass
class Commission:
    rep_id: str
    commission_amount: Decimal
    earned_on: date
    deals: int = 0
    clawback: bool = True
    status: str = "accrued"


def validate_commission(commission: Commission) -> list[str]:
    errors = []
    if not commission.rep_id.strip():
        errors.append("rep_id is required")
    if commission.commission_amount < 0:
        errors.append("commission_amount must not be negative")
    if commission.deals < 0:
        errors.append("deals must be at least 0")
    if commission.status not in COMMISSION_STATUSES:
        errors.append(f"unknown status {commission.status!r}")
    return errors


def is_large_commission(commission: Commission, limit: Decimal = Decimal("10000.00")) -> bool:
    return commission.commission_amount >= limit


def group_commissions_by_status(commissions: Iterable[Commission]) -> dict[str, list[Commission]]:
    groups: dict[str, list[Commission]] = {status: [] for status in COMMISSION_STATUSES}
    for commission in commissions:
        groups.setdefault(commission.status, []).append(commission)
    return groups


def advance_commission(commission: Commission, new_status: str) -> Commission:
    allowed = {("accrued", "approved"), ("approved", "paid")}
    if (commission.status, new_status) not in allowed:
        raise ValueError(f"cannot move commission from {commission.status} to {new_status}")
    return replace(commission, status=new_status)


def split_commissions_by_clawback(
    commissions: Iterable[Commission],
) -> tuple[list[Commission], list[Commission]]:
    yes: list[Commission] = []
    no: list[Commission] = []
    for commission in commissions:
        (yes if commission.clawback else no).append(commission)
    return yes, no


def commission_to_row(commission: Commission) -> dict[str, str]:
    return {
        "rep_id": commission.rep_id,
        "commission_amount": f"{commission.commission_amount:.2f}",
        "earned_on": commission.earned_on.isoformat(),
        "deals": str(commission.deals),
        "clawback": "yes" if commission.clawback else "no",
        "status": commission.status,
    }


def commission_from_row(row: dict[str, str]) -> Commission:
    return Commission(
        rep_id=row["rep_id"].strip(),
        commission_amount=Decimal(row["commission_amount"]),
        earned_on=date.fromisoformat(row["earned_on"]),
        deals=int(row.get("deals") or 0),
        clawback=row.get("clawback", "").lower() in TRUTHY,
        status=row.get("status") or "accrued",
    )


def commission_amount_by_month(commissions: Iterable[Commission]) -> dict[str, Decimal]:
    months: dict[str, Decimal] = {}
    for commission in commissions:
        key = f"{commission.earned_on.year:04d}-{commission.earned_on.month:02d}"
        months[key] = months.get(key, Decimal("0")) + commission.commission_amount
    return dict(sorted(months.items()))


def total_commission_amount(
    commissions: Iterable[Commission], *, only_clawback: bool = False
) -> Decimal:
    total = Decimal("0")
    for commission in commissions:
        if only_clawback and not commission.clawback:
            continue
        total += commission.commission_amount
    return total.quantize(CENT, rounding=ROUND_HALF_UP)


def summarize_commissions(commissions: list[Commission]) -> str:
    if not commissions:
        return "no commissions"
    total = sum((commission.commission_amount for commission in commissions), Decimal("0"))
    flagged = sum(1 for commission in commissions if commission.clawback)
    return f"{len(commissions)} commissions, {total:.2f} in total, {flagged} clawback"


def top_commissions_by_commission_amount(
    commissions: Iterable[Commission], n: int = 3
) -> list[Commission]:
    return sorted(
        commissions, key=lambda item: (item.commission_amount, item.rep_id), reverse=True
    )[:n]
