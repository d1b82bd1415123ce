/**
 * Progress for long runs: a status line on a TTY (stderr), nothing in CI or when piped, so logs
 * stay clean.
 */
export interface ProgressReporter {
  message(text: string): void;
  done(): void;
}

export function progressReporter(stream: NodeJS.WriteStream = process.stderr): ProgressReporter {
  const live = stream.isTTY === true && !process.env.CI;
  let shown = false;
  return {
    message(text: string) {
      if (!live) return;
      stream.write(`\r\x1b[2K${text}`);
      shown = true;
    },
    done() {
      if (live && shown) stream.write('\r\x1b[2K');
      shown = false;
    },
  };
}
