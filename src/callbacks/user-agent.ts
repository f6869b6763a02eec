/** `User-Agent: Hark/<version>` on every callback. */
import { VERSION } from "../version.ts";

export const USER_AGENT = `Hark/${VERSION}`;
