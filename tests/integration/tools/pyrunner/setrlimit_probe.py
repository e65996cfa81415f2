# PyRunner-style tool that calls resource.setrlimit itself, as PyRunner's
# wrapper does before the tool runs: it lowers its address-space and open-file
# limits, then tries to raise the address-space hard limit back up.
import resource


def run(args):
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    lower = args["as_mb"] * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (lower, lower))
    resource.setrlimit(resource.RLIMIT_NOFILE, (32, 32))
    try:
        resource.setrlimit(resource.RLIMIT_AS, (lower * 4, lower * 4))
        raised = "raised"
    except (ValueError, OSError) as e:
        raised = type(e).__name__
    return {"as_before": [soft, hard], "as_now": list(resource.getrlimit(resource.RLIMIT_AS)),
            "nofile_now": list(resource.getrlimit(resource.RLIMIT_NOFILE)), "raise_back": raised}
