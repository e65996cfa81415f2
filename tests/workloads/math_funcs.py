"""Workload: math, cmath and integer arithmetic."""
import cmath
import math
import sys

NAME = "math_funcs"


def check(cond, what):
    if not cond:
        sys.exit(f"FAIL {NAME}: {what}")


def close(a, b, tol=1e-12):
    return math.isclose(a, b, rel_tol=tol, abs_tol=tol)


check(close(math.sqrt(2) ** 2, 2.0), "sqrt")
check(close(math.sin(math.pi / 6), 0.5), "sin")
check(close(math.atan2(1, 1), math.pi / 4), "atan2")
check(close(math.exp(math.log(10)), 10.0), "exp/log")
check(close(math.log10(1e-7), -7.0) and math.log2(1024) == 10.0, "log10/log2")
check(math.factorial(20) == 2432902008176640000, "factorial")
check(math.comb(52, 5) == 2598960 and math.perm(5, 2) == 20, "comb/perm")
check(math.gcd(462, 1071, 21) == 21 and math.lcm(4, 6, 10) == 60, "gcd/lcm")
check(math.isqrt(10**40 + 12345) == 10**20, "isqrt of a big int")
check(math.floor(-2.5) == -3 and math.ceil(-2.5) == -2 and math.trunc(-2.5) == -2, "floor/ceil")
check(round(2.5) == 2 and round(3.5) == 4 and round(1.2345, 2) == 1.23, "banker's rounding")
check(math.fsum([0.1] * 10) == 1.0 and sum([0.1] * 10) != 1.0, "fsum")
check(math.prod(range(1, 11)) == 3628800, "prod")
check(close(math.dist((0, 0), (3, 4)), 5.0) and close(math.hypot(3, 4, 12), 13.0), "dist/hypot")
check(math.isnan(float("nan")) and math.isinf(-math.inf), "nan/inf")
check(math.copysign(1.0, -0.0) == -1.0, "signed zero")
check(math.frexp(8.0) == (0.5, 4) and math.ldexp(0.5, 4) == 8.0, "frexp/ldexp")
check(math.nextafter(1.0, 2.0) - 1.0 == sys.float_info.epsilon, "nextafter/epsilon")
check(close(math.gamma(5), 24.0) and close(math.erf(0), 0.0), "gamma/erf")
check(pow(3, 10**6, 10**9 + 7) == 64935414, "modular pow")
check(pow(3, -1, 7) == 5, "modular inverse")
check(divmod(-7, 3) == (-3, 2) and -7 % 3 == 2, "floored divmod")
check((2**521 - 1) % 1000 == 151, "big int modulo")
check(int("ff", 16) == 255 and hex(255) == "0xff" and bin(10) == "0b1010", "bases")
check((255).to_bytes(2, "big") == b"\x00\xff" and int.from_bytes(b"\x01\x00", "little") == 1, "to/from bytes")
check((10**100).bit_length() == 333, "bit_length")
check(0.1 + 0.2 != 0.3 and (0.1 + 0.2).hex() == "0x1.3333333333334p-2", "float repr")
check(float.fromhex("0x1.8p1") == 3.0 and (1.5).as_integer_ratio() == (3, 2), "float hex/ratio")
check(cmath.isclose(cmath.exp(1j * cmath.pi), -1, abs_tol=1e-12), "Euler's identity")
check(cmath.sqrt(-4) == 2j and abs(3 + 4j) == 5.0, "complex")
check(close(cmath.phase(-1 + 0j), math.pi), "phase")

print(f"ok {NAME}")
