/**
 * What a client may read of a failure. Messages that reach a client (a failed item's `errors`, the
 * callback bodies rendered from it, an error envelope) are often built from what a tool or the system
 * said: ffmpeg's stderr, an errno message. Those name the server's files (the data directory, temp
 * directories, node_modules), heap addresses (`[mp3 @ 0x55d5c…]`) and process ids, which tell a client
 * nothing it can act on and tell an attacker how the server is laid out. The full text stays in the log.
 */

/** What stands in for a server path the caller gave no name for. */
export const SERVER_PATH = "[server path]";

/**
 * The top-level directories a server's absolute paths start with (the FHS, macOS, containers' usual
 * `/app`, `/data`, `/work`). A fixed list rather than "anything after a slash": a client's own text in a
 * message (a URL path such as `/v3/media/…`, a JSON pointer) is the client's to see.
 */
const SERVER_ROOTS = [
  "app",
  "bin",
  "boot",
  "data",
  "dev",
  "etc",
  "home",
  "lib",
  "lib32",
  "lib64",
  "mnt",
  "nix",
  "opt",
  "private",
  "proc",
  "root",
  "run",
  "sbin",
  "srv",
  "sys",
  "tmp",
  "Users",
  "usr",
  "var",
  "Volumes",
  "work",
];

/** An absolute path under one of SERVER_ROOTS, standing on its own (not the path of a URL). */
const SERVER_PATH_PATTERN = new RegExp(
  String.raw`(?<=^|[\s(\[{'"=:,;<>])(?:file:\/\/)?\/(?:${SERVER_ROOTS.join("|")})(?:\/[^\s'"()<>,;:\]]*)?(?=$|[\s'"()<>,;:\]])`,
  "g",
);
/** ffmpeg names the component that speaks by its address: `[mp3 @ 0x55d5c3b1c2c0]`. */
const COMPONENT_ADDRESS = /\s*@\s*0x[0-9a-f]+(?=\])/gi;
/** Any other address-like number long enough to be a pointer. */
const ADDRESS = /\b0x[0-9a-f]{6,}\b/gi;
/** `pid 1234`, `(pid: 1234)`, `pid=1234`. */
const PID = /\s*\(?\bpid\b[\s:=#]*\d+\)?/gi;

export interface ClientMessageOptions {
  /** Exact strings (such as the item's media file) and the words that replace them, applied first. */
  names?: ReadonlyArray<readonly [string, string]>;
  /** More directories whose paths are the server's (the data directory), wherever they are. */
  roots?: readonly string[];
}

/**
 * `message` with server paths, heap addresses and process ids taken out, and on one line. Pure, and
 * idempotent: a message that went through it once goes through again unchanged.
 */
export function clientMessage(message: string, options: ClientMessageOptions = {}): string {
  let text = message;
  for (const [value, name] of options.names ?? []) {
    if (value !== "") text = text.replaceAll(value, name);
  }
  for (const root of options.roots ?? []) {
    if (root === "" || root === "/" || root === ".") continue;
    const escaped = root.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/\/+$/, "");
    text = text.replace(new RegExp(`${escaped}(?:/[^\\s'"()<>,;:\\]]*)?`, "g"), SERVER_PATH);
  }
  return text
    .replace(SERVER_PATH_PATTERN, SERVER_PATH)
    .replace(COMPONENT_ADDRESS, "")
    .replace(ADDRESS, "[address]")
    .replace(PID, "")
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== "")
    .join("; ");
}
