# PyRunner-style tool that allocates args["mb"] MiB, at once or in steps of
# args["step_mb"]; with args["limit_mb"] it first sets its own address-space
# limit, as PyRunner's wrapper does.
import resource


def run(args):
    if args.get("limit_mb"):
        limit = args["limit_mb"] * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    step = args.get("step_mb")
    if step:
        blocks = [bytearray(step << 20) for _ in range(args["mb"] // step)]
        return {"allocated_mb": sum(len(b) for b in blocks) >> 20}
    block = bytearray(args["mb"] * 1024 * 1024)
    return {"allocated_mb": len(block) >> 20}
