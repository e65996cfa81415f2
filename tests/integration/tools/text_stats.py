# PyRunner-style example: statistics of a text.
def run(args):
    text = args["text"]
    words = text.split()
    return {
        "characters": len(text),
        "characters_no_spaces": len("".join(text.split())),
        "words": len(words),
        "lines": len(text.splitlines()),
        "unique_words": len({w.lower().strip(".,!?") for w in words}),
        "longest_word": max((w.strip(".,!?") for w in words), key=len, default=""),
    }
