"""toolcell's Python front ends, one package (issue 13's direction): era
(the ERA microVM wrapper's command line), threegate (ThreeGate's Tool
Request and Tool Result formats) and tool_exec (ThreeGate's TOOL-EXEC
runner). Entry points are the short scripts in tools/. Debian's
/usr/bin/python3, standard library only, started with -I -S: modules here
import only what they need, when they need it, so a run starts fast."""
