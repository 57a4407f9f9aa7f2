"""An engine process driven through the protocol, for the scripts here."""
import subprocess
import sys


class Engine:
    """The engine started with `args`, after `uci` … `uciok`."""

    def __init__(self, args):
        self.process = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        text=True, bufsize=1)
        self.send('uci')
        self.read_until('uciok')

    def send(self, command):
        self.process.stdin.write(command + '\n')
        self.process.stdin.flush()

    def read_until(self, prefix):
        """The lines up to and including the first that starts with `prefix`."""
        lines = []
        while True:
            line = self.process.stdout.readline()
            if not line:
                sys.exit(f'the engine ended before "{prefix}"')
            lines.append(line)
            if line.startswith(prefix):
                return lines

    def quit(self):
        self.send('quit')
        self.process.wait()
