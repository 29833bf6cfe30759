// A stand-in TUI that ignores SIGHUP (as a harness may): it outlives `tmux kill-session`, which hangs up
// on its pane. argv: ignored (it is started in place of a harness). Prints one line, then never exits.
process.on("SIGHUP", () => {});
process.stdout.write("a TUI that ignores SIGHUP is ready\n");
setInterval(() => {}, 1_000_000);
