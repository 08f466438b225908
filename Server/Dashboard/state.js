// What the views share: who is signed in, and the classes with their schemas.
import { api } from './api.js';
import { fieldList } from './types.js';

export const state = {
  /** {name, role, expiresAt, appId} */
  session: null,
  /**
   * className → {className, fields: [{name, type, targetClass, readOnly, hidden, exposed, required, defaultValue}],
   * permissions, defaultACL, indexes: {name: {"field.path": 1 | -1}}}
   */
  classes: new Map(),
  get canEdit() { return this.session?.role === 'admin'; },
};

/** Reads every class from the schema API (with permissions: full=1). */
export async function loadClasses() {
  const reply = await api.get('/schemas', { full: 1 });
  state.classes = new Map(reply.results.map((schema) => [schema.className, {
    className: schema.className,
    fields: fieldList(schema.fields),
    permissions: schema.classLevelPermissions ?? {},
    defaultACL: schema.defaultACL,
    indexes: schema.indexes ?? {},
  }]));
  return state.classes;
}

export const fieldOf = (className, name) => state.classes.get(className)?.fields.find((field) => field.name === name);
