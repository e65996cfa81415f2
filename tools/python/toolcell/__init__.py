"""toolcell's Python side, one package: client (call, run and sessions for
agent frameworks; also importable as toolcell_client, its first name),
binary (how each of them finds toolcell, builds its options and reads its
record), era (the ERA microVM wrapper's command line, with the POSIX word
splitter), serve (the client of `toolcell serve`, client.Client),
threegate (ThreeGate's Tool Request and Tool Result formats) and tool_exec
(ThreeGate's TOOL-EXEC runner). The front ends' entry points are
the short scripts tools/era-wrapper and tools/toolcell-tool-exec. Debian's
/usr/bin/python3, standard library only; the front ends start with -I -S,
and their modules import only what they need, when they need it, so a run
starts fast."""
