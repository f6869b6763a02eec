/** The part of s3rver's API the tests use (the package ships no types). */
declare module "s3rver" {
  import type http from "node:http";
  import type { AddressInfo } from "node:net";

  interface S3rverOptions {
    address: string;
    port: number;
    silent: boolean;
    directory: string;
    configureBuckets: { name: string }[];
  }
  class S3rver {
    constructor(options: S3rverOptions);
    run(): Promise<AddressInfo>;
    close(): Promise<void>;
    httpServer: http.Server;
  }
  export = S3rver;
}
