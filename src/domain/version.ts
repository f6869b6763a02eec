/** Hark's version, from package.json: in the User-Agent of callbacks and the OpenAPI description. */
import packageJson from "../../package.json" with { type: "json" };

export const VERSION: string = packageJson.version;
