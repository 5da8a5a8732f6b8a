// The API's field names as people say them, for figures and settings the dashboard lists by key.

const FIGURES: Record<string, string> = {
  total: 'Messages', parts: 'Message parts', sent: 'Sent', delivered: 'Delivered', failed: 'Failed', queued: 'Queued',
  scheduled: 'Scheduled', cancelled: 'Cancelled', credits_consumed: 'Credits used', inbound: 'Replies received', optouts: 'Opt-outs',
};

/** A figure's label: its word when known, else the field name with spaces and a capital. */
export function figureLabel(key: string): string {
  return FIGURES[key] ?? key.replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase());
}
