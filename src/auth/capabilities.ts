/** Roles and the capability matrix of API.md §4, as one table. */
export const ROLES = ['administrator', 'editor', 'author', 'contributor', 'subscriber'] as const;
export type Role = (typeof ROLES)[number];

export function isRole(value: unknown): value is Role {
  return ROLES.some((role) => role === value);
}

export type Capability =
  | 'read'
  | 'create_posts'
  | 'publish_posts'
  | 'edit_own_posts'
  | 'edit_own_published_posts'
  | 'edit_others_posts'
  | 'read_others_private_posts'
  | 'delete_permanently'
  | 'upload_files'
  | 'manage_categories'
  | 'manage_tags'
  | 'manage_users';

const YES = true;
const NO = false;

//                                      admin  editor author contrib subscriber
const MATRIX: Record<Capability, readonly [boolean, boolean, boolean, boolean, boolean]> = {
  read: [YES, YES, YES, YES, YES],
  create_posts: [YES, YES, YES, YES, NO],
  publish_posts: [YES, YES, YES, NO, NO],
  edit_own_posts: [YES, YES, YES, YES, NO],
  edit_own_published_posts: [YES, YES, YES, NO, NO],
  edit_others_posts: [YES, YES, NO, NO, NO],
  read_others_private_posts: [YES, YES, NO, NO, NO],
  delete_permanently: [YES, YES, NO, NO, NO],
  upload_files: [YES, YES, YES, NO, NO],
  manage_categories: [YES, YES, YES, NO, NO],
  manage_tags: [YES, YES, NO, NO, NO],
  manage_users: [YES, NO, NO, NO, NO],
};

export function can(role: Role | undefined, capability: Capability): boolean {
  if (role === undefined) return capability === 'read';
  return MATRIX[capability][ROLES.indexOf(role)];
}
