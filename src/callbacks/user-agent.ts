/** `User-Agent: Hark/<version>` on every callback. */
import { VERSION } from "../domain/version.ts";

export const USER_AGENT = `Hark/${VERSION}`;
