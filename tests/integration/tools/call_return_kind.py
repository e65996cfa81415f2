# call tool: returns a value that is not a dict, chosen by args["kind"].
VALUES = {
    "list": [1, "two", 3.5, None],
    "int": 42,
    "str": "plain text",
    "none": None,
    "bool": False,
}


def run(args):
    return VALUES[args["kind"]]
