"""Workload: decimal contexts, precision, quantize, rounding, traps."""
import sys
from decimal import (ROUND_DOWN, ROUND_HALF_EVEN, ROUND_HALF_UP, Context, Decimal,
                     DivisionByZero, Inexact, InvalidOperation, getcontext, localcontext)

NAME = "decimal_ctx"


def check(cond, what):
    if not cond:
        sys.exit(f"FAIL {NAME}: {what}")


check(Decimal("0.1") + Decimal("0.2") == Decimal("0.3"), "exact decimal addition")
check(str(Decimal(1) / Decimal(7)) == "0.1428571428571428571428571429", "default 28 digits")

with localcontext() as ctx:
    ctx.prec = 50
    third = Decimal(1) / Decimal(3)
    check(str(third) == "0." + "3" * 50, "50-digit precision")
    check(str(Decimal(2).sqrt())[:22] == "1.41421356237309504880", "sqrt at 50 digits")
check(getcontext().prec == 28, "localcontext did not restore precision")

ctx = Context(prec=6, rounding=ROUND_HALF_UP)
check(str(ctx.divide(Decimal(2), Decimal(3))) == "0.666667", "Context.divide")
check(str(ctx.power(Decimal(2), 100)) == "1.26765E+30", "Context.power")

cents = Decimal("0.01")
check(Decimal("2.675").quantize(cents, rounding=ROUND_HALF_UP) == Decimal("2.68"), "quantize half up")
check(Decimal("2.665").quantize(cents, rounding=ROUND_HALF_EVEN) == Decimal("2.66"), "quantize half even")
check(Decimal("-7.999").quantize(Decimal("1"), rounding=ROUND_DOWN) == Decimal("-7"), "quantize down")
check(str(Decimal("1234.5").quantize(Decimal("1e1"))) == "1.23E+3", "quantize to tens")

total = sum((Decimal(p) * q for p, q in [("19.99", 3), ("0.05", 7), ("100", 1)]), Decimal(0))
check(total == Decimal("160.32"), f"invoice total {total}")
vat = (total * Decimal("0.2")).quantize(cents, rounding=ROUND_HALF_UP)
check(vat == Decimal("32.06"), f"VAT {vat}")

check(Decimal("1.10").as_tuple() == (0, (1, 1, 0), -2), "as_tuple")
check(Decimal("1.10").normalize() == Decimal("1.1") and str(Decimal("1.10").normalize()) == "1.1", "normalize")
check(Decimal(0.1) != Decimal("0.1") and str(Decimal(0.5)) == "0.5", "from float is exact")
check(Decimal("NaN").is_nan() and Decimal("-Infinity").is_infinite(), "specials")
check(f"{Decimal('1234567.891'):,.2f}" == "1,234,567.89", "format spec")
check(int(Decimal("42.9")) == 42 and float(Decimal("0.5")) == 0.5, "conversions")

with localcontext() as c:
    c.traps[DivisionByZero] = True
    try:
        Decimal(1) / Decimal(0)
    except DivisionByZero:
        pass
    else:
        check(False, "DivisionByZero not raised")
    c.traps[DivisionByZero] = False
    check(Decimal(1) / Decimal(0) == Decimal("Infinity"), "untrapped division by zero")
    c.traps[Inexact] = True
    try:
        Decimal(1) / Decimal(3)
    except Inexact:
        pass
    else:
        check(False, "Inexact not raised")
try:
    Decimal("not a number")
except InvalidOperation:
    pass
else:
    check(False, "bad literal accepted")

print(f"ok {NAME}")
