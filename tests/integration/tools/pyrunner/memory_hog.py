# PyRunner-style tool that allocates args["mb"] MiB; with args["limit_mb"] it
# first sets its own address-space limit, as PyRunner's wrapper does.
import resource


def run(args):
    if args.get("limit_mb"):
        limit = args["limit_mb"] * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    block = bytearray(args["mb"] * 1024 * 1024)
    return {"allocated_mb": len(block) >> 20}
