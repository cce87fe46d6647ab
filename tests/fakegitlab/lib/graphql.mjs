// The part of GitLab's GraphQL API the program reads (docs/rules/gitlab.md
// G11): the editors of an MR's notes. The schema below is a subset of
// GitLab's, written by hand; test/graphql.test.mjs checks every type,
// field and argument of it against reference/graphql-types.json (taken from
// GitLab's GraphQL type definitions). Executed by graphql-js from the test
// peers.
import { createRequire } from 'node:module';

const require = createRequire(new URL('../../peers/package.json', import.meta.url));
let graphql;
try {
  graphql = require('graphql');
} catch {
  throw new Error('fakegitlab: cannot load graphql from tests/peers/node_modules; run "npm ci" in tests/peers first');
}

export const SDL = `
scalar Time
scalar NoteID
scalar UserID
scalar ProjectID
scalar MergeRequestID

type Query {
  currentUser: UserCore
  project(fullPath: ID!): Project
}

type UserCore {
  id: UserID!
  username: String!
  name: String!
}

type Project {
  id: ProjectID!
  fullPath: ID!
  mergeRequest(iid: String!): MergeRequest
}

type MergeRequest {
  id: MergeRequestID!
  iid: String!
  notes(first: Int, after: String, last: Int, before: String): NoteConnection!
}

type NoteConnection {
  count: Int!
  nodes: [Note]
  edges: [NoteEdge]
  pageInfo: PageInfo!
}

type NoteEdge {
  cursor: String!
  node: Note
}

type PageInfo {
  hasNextPage: Boolean!
  hasPreviousPage: Boolean!
  startCursor: String
  endCursor: String
}

type Note {
  id: NoteID!
  body: String!
  author: UserCore
  createdAt: Time!
  updatedAt: Time!
  lastEditedAt: Time
  lastEditedBy: UserCore
  system: Boolean!
  internal: Boolean
  url: String
}
`;

const MAX_PAGE = 100; // GitLab's GraphQL max_page_size

export const schema = graphql.buildSchema(SDL);

/** Does the query select MR notes (a `read: editors` access)? */
export function selectsNotes(query) {
  return typeof query === 'string' && /\bnotes\s*[({]/.test(query);
}

const cursor = (i) => Buffer.from(JSON.stringify({ id: String(i) })).toString('base64');
const offset = (c) => {
  try {
    return Number(JSON.parse(Buffer.from(String(c), 'base64').toString('utf8')).id);
  } catch {
    return NaN;
  }
};

export function runGraphql(fake, viewer, source, variables) {
  const s = fake.state;
  const user = (name) => (name ? { id: `gid://gitlab/User/${name.length}`, username: name, name } : null);
  const root = {
    currentUser: () => user(viewer),
    project: ({ fullPath }) => {
      if (fullPath !== s.repository) return null;
      return {
        id: `gid://gitlab/Project/${s.project_id}`,
        fullPath: s.repository,
        mergeRequest: ({ iid }) => {
          const mr = s.merge_requests.find((m) => String(m.iid) === String(iid));
          if (!mr) return null;
          return {
            id: `gid://gitlab/MergeRequest/${mr.id}`,
            iid: String(mr.iid),
            notes: ({ first, after, last, before }) => {
              const all = mr.discussions.flatMap((d) => d.notes).sort((a, b) => a.id - b.id);
              let start = after !== undefined && after !== null ? offset(after) + 1 : 0;
              let end = before !== undefined && before !== null ? offset(before) : all.length;
              if (!Number.isFinite(start) || !Number.isFinite(end)) throw new Error('Invalid cursor');
              if (first != null) end = Math.min(end, start + Math.min(first, MAX_PAGE));
              else if (last != null) start = Math.max(start, end - Math.min(last, MAX_PAGE));
              else end = Math.min(end, start + MAX_PAGE);
              const nodes = all.slice(start, end).map((n) => ({
                id: `gid://gitlab/${n.type ?? 'Note'}/${n.id}`,
                body: n.body,
                author: user(n.author),
                createdAt: n.created_at,
                updatedAt: n.updated_at,
                lastEditedAt: n.last_edited_at,
                lastEditedBy: n.last_edited_at ? user(n.last_edited_by) : null,
                system: n.system,
                internal: n.internal,
                url: `${mr.web_url}#note_${n.id}`,
              }));
              return {
                count: all.length,
                nodes,
                edges: nodes.map((node, i) => ({ cursor: cursor(start + i), node })),
                pageInfo: {
                  hasNextPage: end < all.length,
                  hasPreviousPage: start > 0,
                  startCursor: nodes.length ? cursor(start) : null,
                  endCursor: nodes.length ? cursor(end - 1) : null,
                },
              };
            },
          };
        },
      };
    },
  };
  const doc = (() => {
    try {
      return graphql.parse(source);
    } catch (e) {
      return e;
    }
  })();
  if (doc instanceof Error) return { errors: [{ message: doc.message }] };
  const errors = graphql.validate(schema, doc);
  if (errors.length) return { errors: errors.map((e) => ({ message: e.message, locations: e.locations })) };
  const result = graphql.executeSync({ schema, document: doc, rootValue: root, variableValues: variables });
  return JSON.parse(JSON.stringify(result));
}
