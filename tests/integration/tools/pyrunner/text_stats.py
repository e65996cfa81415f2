# PyRunner-style tool: statistics of a text. Answers in PyRunner's own
# {"ok": ..., "data" | "error"} shape; a missing text is its error without a type.
def run(args):
    text = args.get("text", "")
    if not text:
        return {"ok": False, "error": {"message": "Missing required parameter: text"}}
    words = text.split()
    letters = sum(len(w.strip(".,;:!?")) for w in words)
    counts = {}
    for w in words:
        key = w.lower().strip(".,;:!?")
        counts[key] = counts.get(key, 0) + 1
    top = max(sorted(counts), key=counts.get)
    return {"ok": True, "data": {
        "wordCount": len(words),
        "characterCount": len(text),
        "lineCount": len(text.splitlines()),
        "averageWordLength": round(letters / len(words), 2),
        "mostCommonWord": top,
        "mostCommonCount": counts[top],
    }}
