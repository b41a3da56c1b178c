// yoga.mjs is a GraphQL server that gqlbench did not write, in another stack
// (Node, graphql-yoga), over a schema that is not LinGBM's: a bookshop of 200
// books by 40 authors, its data a fixed formula of each object's index (no
// randomness), every list in id order. The Go tests start it through
// internal/nodetest.StartYoga.
//
//	node yoga.mjs [--port N] [--mutate] [--exit-with-stdin]
//
//	--port N           listen on 127.0.0.1:N; 0 (the default) picks a free port
//	--mutate           give some answers a wrong value: Book.price of the books
//	                   whose id ends in 7 modulo 50 (7, 57, 107, 157) is 1 more
//	                   than the formula's, so a checker of answers must catch
//	                   it and name the path (data.book.price)
//	--exit-with-stdin  exit when stdin closes: the Go tests hold it open, so a
//	                   test binary that dies takes the server with it
//
// When ready it prints exactly one line on stdout,
//
//	listening on http://127.0.0.1:PORT/graphql
//
// and nothing else there; errors go to stderr.
import { createServer } from 'node:http';
import { GraphQLError } from 'graphql';
import { createSchema, createYoga } from 'graphql-yoga';

const typeDefs = /* GraphQL */ `
  enum Genre { FICTION MYSTERY SCIENCE HISTORY POETRY }

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
  }

  type Author {
    id: ID!
    name: String!
    born: Int
    books: [Book!]!
  }

  type Review {
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
    stars: 1 + (k + 2 * j) % 5,
    text: (k + j) % 9 === 8 ? null : phrases[(k * 3 + j) % phrases.length],
  })),
}));

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
  const usage = 'usage: node yoga.mjs [--port N] [--mutate] [--exit-with-stdin]\n';
  const o = { port: 0, mutate: false, exitWithStdin: false };
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
});
const server = createServer(yoga);
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
  process.on(sig, () => server.close(() => process.exit(0)));
}
