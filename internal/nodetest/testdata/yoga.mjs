// yoga.mjs is a GraphQL server that gqlbench did not write, in another stack
// (Node, graphql-yoga), over a schema that is not LinGBM's: a bookshop of 200
// books by 40 authors, its data a fixed formula of each object's index (no
// randomness), every list in id order. The Go tests start it through
// internal/nodetest.StartYoga.
//
//	node yoga.mjs [--port N] [--mutate] [--token T] [--tracing] [--exit-with-stdin]
//
//	--port N           listen on 127.0.0.1:N; 0 (the default) picks a free port
//	--mutate           give some answers a wrong value: Book.price of the books
//	                   whose id ends in 7 modulo 50 (7, 57, 107, 157) is 1 more
//	                   than the formula's, so a checker of answers must catch
//	                   it and name the path (data.book.price)
//	--token T          every request, introspection included, needs the header
//	                   "Authorization: Bearer T": without it the answer is
//	                   HTTP 401 with a GraphQL error, as APIs behind a gateway
//	                   answer
//
// Besides the plain types the schema has what users' APIs have: an enum
// (Genre), a custom scalar (Date, "YYYY-MM-DD"), a union (SearchResult), a
// cursor connection (booksPage: pageInfo.endCursor is the next page's
// "after"), list arguments of every kind (tags, genres, years) and a
// mutation (addReview, which changes later answers: a review gets the next
// id of a counter, and the book's reviews grow) and a subscription
// (reviewAdded, each added review, over GraphQL over SSE and over a websocket
// speaking graphql-transport-ws at the same path). resetReviews puts the
// reviews back as they were at start.
//	--tracing          add Apollo tracing to every answer (extensions.tracing:
//	                   envelop's useApolloTracing plugin), as many servers of
//	                   other stacks do: what gqlbench load --layers reads
//	--exit-with-stdin  exit when stdin closes: the Go tests hold it open, so a
//	                   test binary that dies takes the server with it
//
// When ready it prints exactly one line on stdout,
//
//	listening on http://127.0.0.1:PORT/graphql
//
// and nothing else there; errors go to stderr.
import { createServer } from 'node:http';
import { GraphQLError, GraphQLScalarType, Kind } from 'graphql';
import { createPubSub, createSchema, createYoga } from 'graphql-yoga';
import { useApolloTracing } from '@envelop/apollo-tracing';
import { WebSocketServer } from 'ws';
import { useServer } from 'graphql-ws/lib/use/ws';

// pubSub carries addReview's events to reviewAdded's subscribers (served
// over GraphQL over Server-Sent Events, yoga's built-in transport, and over
// graphql-transport-ws through graphql-ws and ws).
const pubSub = createPubSub();

const typeDefs = /* GraphQL */ `
  enum Genre { FICTION MYSTERY SCIENCE HISTORY POETRY }

  "A calendar date, YYYY-MM-DD."
  scalar Date

  "Conditions on books; every one given must hold."
  input BookFilter {
    genre: Genre
    minYear: Int
    maxPrice: Float
    inStock: Boolean
    authorIds: [ID!]
  }

  type Query {
    book(id: ID!): Book
    "Books in id order, filtered, then the page [offset, offset+limit)."
    books(genre: Genre, filter: BookFilter, limit: Int = 10, offset: Int = 0): [Book!]!
    author(id: ID!): Author
    "The authors of ids in that order, null for an unknown id."
    authors(ids: [ID!]!): [Author]!
    "Books whose title contains text (case-insensitive), in id order."
    search(text: String!, inStockOnly: Boolean = false): [Book!]!
    "Books with any of the tags, of any of the genres, of any of the years (each null or absent: no condition), in id order."
    tagged(tags: [String!], genres: [Genre!], years: [Int!], limit: Int = 10): [Book!]!
    "Books in id order published on or after the date."
    since(date: Date!, limit: Int = 10): [Book!]!
    "Books and authors whose title or name contains text, books first."
    find(text: String!): [SearchResult!]!
    "Books in id order, a page of first after the cursor after (null: from the start)."
    booksPage(first: Int = 10, after: String): BookConnection!
  }

  union SearchResult = Book | Author

  type BookConnection {
    nodes: [Book!]!
    pageInfo: PageInfo!
  }

  type PageInfo {
    endCursor: String
    hasNextPage: Boolean!
  }

  type Subscription {
    "Each review added from now on (addReview); with bookId, only that book's."
    reviewAdded(bookId: ID): Review!
  }

  type Mutation {
    "Adds a review to a book: its id is the next of a counter."
    addReview(bookId: ID!, stars: Int!, text: String): Review!
    "Puts every book's reviews back as they were at start; the number of reviews removed."
    resetReviews: Int!
  }

  type Book {
    id: ID!
    title: String!
    year: Int
    price: Float
    inStock: Boolean
    genre: Genre
    author: Author
    reviews(minStars: Int): [Review!]!
    published: Date
    tags: [String!]!
  }

  type Author {
    id: ID!
    name: String!
    born: Int
    books: [Book!]!
  }

  type Review {
    id: ID!
    stars: Int
    text: String
  }
`;

// The data: author and book k (0-based) are pure functions of k.
const firstNames = ['Ada', 'Bruno', 'Chiara', 'Dmitri', 'Elif', 'Farid', 'Greta', 'Hiro'];
const lastNames = ['Abbott', 'Barros', 'Castell', 'Duarte', 'Eriksen'];
const adjectives = ['Silent', 'Crimson', 'Hidden', 'Last', 'Broken', 'Golden',
  'Distant', 'Quiet', 'Burning', 'Frozen', 'Secret', 'Wandering'];
const nouns = ['River', 'Garden', 'Empire', 'Letter', 'Harbor', 'Orchard', 'Mirror', 'Compass',
  'Lantern', 'Island', 'Archive', 'Meadow', 'Tower', 'Voyage', 'Winter', 'Circuit', 'Atlas'];
const genres = ['FICTION', 'MYSTERY', 'SCIENCE', 'HISTORY', 'POETRY'];
const phrases = ['A delight.', 'Could not put it down.', 'Too long.', 'Read it twice.',
  'The ending disappoints.', 'Beautifully written.', 'Not for me.'];

const tagNames = ['classic', 'award', 'debut', 'translated', 'illustrated'];

const authorCount = 40;
const bookCount = 200;

// authors: 8 first names × 5 last names, each pair once.
const authors = Array.from({ length: authorCount }, (_, k) => ({
  id: String(k + 1),
  name: `${firstNames[k % 8]} ${lastNames[Math.floor(k / 8)]}`,
  born: k % 10 === 9 ? null : 1900 + (k * 17) % 90,
}));

// books: titles are unique (k mod 12 and 5k mod 17 together determine k
// below 204); 11 is prime to 40, so every author has exactly 5 books.
const books = Array.from({ length: bookCount }, (_, k) => ({
  id: String(k + 1),
  title: `${adjectives[k % 12]} ${nouns[(k * 5) % 17]}`,
  year: k % 25 === 24 ? null : 1950 + (k * 29) % 73,
  price: k % 50 === 49 ? null : (499 + (k * 1301) % 5000) / 100,
  inStock: k % 3 !== 2,
  genre: genres[Math.floor(k / 3) % 5],
  authorId: String((k * 11) % authorCount + 1),
  reviews: Array.from({ length: k % 4 }, (_, j) => ({
    id: `${k + 1}-${j + 1}`,
    stars: 1 + (k + 2 * j) % 5,
    text: (k + j) % 9 === 8 ? null : phrases[(k * 3 + j) % phrases.length],
  })),
  // published: a date in the book's year (none without a year)
  published: k % 25 === 24 ? null :
    `${1950 + (k * 29) % 73}-${String(1 + k % 12).padStart(2, '0')}-${String(1 + (k * 7) % 28).padStart(2, '0')}`,
  tags: tagNames.filter((_, j) => (k + j) % (j + 2) === 0),
}));
const startReviews = books.map((b) => b.reviews.length);
let reviewSeq = 0;

// dateScalar is the custom scalar Date: "YYYY-MM-DD" in and out.
const datePattern = /^\d{4}-\d{2}-\d{2}$/;
function parseDate(v) {
  if (typeof v !== 'string' || !datePattern.test(v) || Number.isNaN(Date.parse(v))) {
    throw new GraphQLError(`Date wants "YYYY-MM-DD", got ${JSON.stringify(v)}`);
  }
  return v;
}
const dateScalar = new GraphQLScalarType({
  name: 'Date',
  serialize: (v) => v,
  parseValue: parseDate,
  parseLiteral: (ast) => parseDate(ast.kind === Kind.STRING ? ast.value : null),
});

// byIndex returns the element of list whose id is id, or null.
function byIndex(list, id) {
  const n = Number(id);
  return Number.isInteger(n) && n >= 1 && n <= list.length && String(n) === id ? list[n - 1] : null;
}

// page checks limit and offset and cuts list.
function page(list, limit, offset) {
  if (limit < 0 || offset < 0) {
    throw new GraphQLError(`limit and offset must not be negative (got ${limit}, ${offset})`);
  }
  return list.slice(offset, offset + limit);
}

// matches says whether book b meets filter f.
function matches(b, f) {
  return (f.genre == null || b.genre === f.genre) &&
    (f.minYear == null || (b.year !== null && b.year >= f.minYear)) &&
    (f.maxPrice == null || (b.price !== null && b.price <= f.maxPrice)) &&
    (f.inStock == null || b.inStock === f.inStock) &&
    (f.authorIds == null || f.authorIds.includes(b.authorId));
}

function resolvers(mutate) {
  const price = mutate
    ? (b) => (b.price !== null && Number(b.id) % 50 === 7 ? b.price + 1 : b.price)
    : (b) => b.price;
  return {
    Query: {
      book: (_, { id }) => byIndex(books, id),
      books: (_, { genre, filter, limit, offset }) =>
        page(books.filter((b) => (genre == null || b.genre === genre) && matches(b, filter ?? {})), limit, offset),
      author: (_, { id }) => byIndex(authors, id),
      authors: (_, { ids }) => ids.map((id) => byIndex(authors, id)),
      search: (_, { text, inStockOnly }) => {
        const t = text.toLowerCase();
        return books.filter((b) => b.title.toLowerCase().includes(t) && (!inStockOnly || b.inStock));
      },
      tagged: (_, { tags, genres, years, limit }) => page(books.filter((b) =>
        (tags == null || b.tags.some((t) => tags.includes(t))) &&
        (genres == null || genres.includes(b.genre)) &&
        (years == null || years.includes(b.year))), limit, 0),
      since: (_, { date, limit }) => page(books.filter((b) => b.published !== null && b.published >= date), limit, 0),
      find: (_, { text }) => {
        const t = text.toLowerCase();
        return [...books.filter((b) => b.title.toLowerCase().includes(t)),
          ...authors.filter((a) => a.name.toLowerCase().includes(t))];
      },
      booksPage: (_, { first, after }) => {
        let from = 0;
        if (after != null) {
          const m = /^cursor:(\d+)$/.exec(after);
          if (!m) throw new GraphQLError(`not a cursor: ${JSON.stringify(after)}`);
          from = Number(m[1]);
        }
        const nodes = page(books, first, from);
        const end = from + nodes.length;
        return { nodes, pageInfo: { endCursor: nodes.length ? `cursor:${end}` : null, hasNextPage: end < books.length } };
      },
    },
    Mutation: {
      addReview: (_, { bookId, stars, text }) => {
        const b = byIndex(books, bookId);
        if (b === null) throw new GraphQLError(`no book ${bookId}`);
        if (stars < 1 || stars > 5) throw new GraphQLError(`stars must be 1 to 5, got ${stars}`);
        const r = { id: `r${++reviewSeq}`, stars, text: text ?? null };
        b.reviews.push(r);
        pubSub.publish('review', { bookId: b.id, review: r });
        return r;
      },
      resetReviews: () => {
        let n = 0;
        books.forEach((b, k) => { n += b.reviews.length - startReviews[k]; b.reviews.length = startReviews[k]; });
        reviewSeq = 0;
        return n;
      },
    },
    Subscription: {
      reviewAdded: {
        subscribe: async function* (_, { bookId }) {
          for await (const e of pubSub.subscribe('review')) {
            if (bookId == null || e.bookId === String(bookId)) yield e.review;
          }
        },
        resolve: (review) => review,
      },
    },
    Date: dateScalar,
    SearchResult: {
      __resolveType: (o) => (o.title !== undefined ? 'Book' : 'Author'),
    },
    Book: {
      price,
      author: (b) => byIndex(authors, b.authorId),
      reviews: (b, { minStars }) => b.reviews.filter((r) => minStars == null || r.stars >= minStars),
    },
    Author: {
      books: (a) => books.filter((b) => b.authorId === a.id),
    },
  };
}

// options parses the command line, exiting with status 2 on a mistake.
function options(argv) {
  const usage = 'usage: node yoga.mjs [--port N] [--mutate] [--token T] [--tracing] [--exit-with-stdin]\n';
  const o = { port: 0, mutate: false, token: '', tracing: false, exitWithStdin: false };
  for (let i = 0; i < argv.length; i++) {
    switch (argv[i]) {
      case '--port': {
        const p = Number(argv[++i]);
        if (!Number.isInteger(p) || p < 0 || p > 65535) {
          process.stderr.write(`yoga.mjs: --port wants a port number, got ${argv[i]}\n${usage}`);
          process.exit(2);
        }
        o.port = p;
        break;
      }
      case '--mutate':
        o.mutate = true;
        break;
      case '--token':
        o.token = argv[++i] ?? '';
        if (o.token === '') {
          process.stderr.write(`yoga.mjs: --token wants a token\n${usage}`);
          process.exit(2);
        }
        break;
      case '--tracing':
        o.tracing = true;
        break;
      case '--exit-with-stdin':
        o.exitWithStdin = true;
        break;
      case '--help':
      case '-h':
        process.stdout.write(usage);
        process.exit(0);
      default:
        process.stderr.write(`yoga.mjs: unknown argument ${argv[i]}\n${usage}`);
        process.exit(2);
    }
  }
  return o;
}

const opts = options(process.argv.slice(2));
const yoga = createYoga({
  schema: createSchema({ typeDefs, resolvers: resolvers(opts.mutate) }),
  graphqlEndpoint: '/graphql',
  graphiql: false,
  landingPage: false,
  logging: false,
  plugins: opts.tracing ? [useApolloTracing()] : [],
});
// guarded refuses a request without the token, before GraphQL sees it.
function guarded(req, res) {
  if (opts.token !== '' && req.headers.authorization !== `Bearer ${opts.token}`) {
    res.writeHead(401, { 'Content-Type': 'application/json', 'WWW-Authenticate': 'Bearer' });
    res.end(JSON.stringify({ errors: [{ message: 'Unauthorized: a bearer token is required' }] }));
    return;
  }
  yoga(req, res);
}
const server = createServer(guarded);
// The websocket side: graphql-ws's server (the graphql-transport-ws
// protocol) at the GraphQL path, each operation run through yoga's own
// envelop (parse, validate, context, execute, subscribe), as yoga's docs
// wire it.
const wsServer = new WebSocketServer({
  server,
  path: '/graphql',
  verifyClient: (info) => opts.token === '' || info.req.headers.authorization === `Bearer ${opts.token}`,
});
useServer({
  execute: (args) => args.rootValue.execute(args),
  subscribe: (args) => args.rootValue.subscribe(args),
  onSubscribe: async (ctx, msg) => {
    const { schema, execute, subscribe, contextFactory, parse, validate } = yoga.getEnveloped({
      ...ctx, req: ctx.extra.request, socket: ctx.extra.socket, params: msg.payload,
    });
    const args = {
      schema,
      operationName: msg.payload.operationName,
      document: parse(msg.payload.query),
      variableValues: msg.payload.variables,
      contextValue: await contextFactory(),
      rootValue: { execute, subscribe },
    };
    const errors = validate(args.schema, args.document);
    return errors.length ? errors : args;
  },
}, wsServer);
server.on('error', (err) => {
  process.stderr.write(`yoga.mjs: ${err.message}\n`);
  process.exit(1);
});
server.listen(opts.port, '127.0.0.1', () => {
  process.stdout.write(`listening on http://127.0.0.1:${server.address().port}/graphql\n`);
});
if (opts.exitWithStdin) {
  process.stdin.on('end', () => process.exit(0));
  process.stdin.on('error', () => process.exit(0));
  process.stdin.resume();
}
for (const sig of ['SIGINT', 'SIGTERM']) {
  process.on(sig, () => {
    wsServer.clients.forEach((c) => c.terminate()); // open websockets would hold server.close
    server.close(() => process.exit(0));
  });
}
