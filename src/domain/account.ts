/** An account: the owner of media, definitions, signing secrets and public keys; another never sees them. */
export interface Account {
  accountId: string;
  accountName: string;
}
