/**
 * `npm run openapi`: writes docs/openapi.json, the OpenAPI description as the server serves it (with the
 * default public URL), for readers of the repository. A test fails when the file and the code disagree.
 */
import fs from "node:fs/promises";
import { OPENAPI_FILE, openApiFileText } from "../src/api/openapi.ts";

await fs.writeFile(OPENAPI_FILE, openApiFileText());
process.stdout.write(`wrote ${OPENAPI_FILE}\n`);
