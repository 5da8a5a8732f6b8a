// Who is calling: the account behind the API key, as read at the start of the request.
export interface AccountSnapshot {
  id: string;
  parentId: string | null;
  businessName: string;
  abn: string | null;
  accountStatus: string;
  hierarchyEnabled: boolean;
  dailyLimit: number | null;
  managedByParent: boolean;
  optoutExempt: boolean;
  inheritParentSenders: boolean;
}

export interface Actor {
  accountId: string;
  keyId: string;
  account: AccountSnapshot;
}
