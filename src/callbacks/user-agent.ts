/** `User-Agent: Hark/<version>` on every callback, the version from package.json. */
import packageJson from "../../package.json" with { type: "json" };

export const USER_AGENT = `Hark/${packageJson.version}`;
