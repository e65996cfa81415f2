"""A small PyRunner-style tool for the quick start: text statistics."""
import collections
import re


def run(args):
    text = str(args.get("text", ""))
    words = re.findall(r"[A-Za-z']+", text.lower())
    return {
        "words": len(words),
        "characters": len(text),
        "most_common": collections.Counter(words).most_common(3),
    }
