/** The channel on which a carrier reload is announced to every process of every instance on the database. */
export const CARRIERS_RELOAD_CHANNEL = 'tasman_carriers_reload';
