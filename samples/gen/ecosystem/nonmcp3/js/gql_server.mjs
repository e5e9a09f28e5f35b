// graphql-sse server as its "Get started" page shows it: graphql-js schema, createHandler from graphql-sse/lib/use/http
// on Node's http server at /graphql/stream.   node gql_server.mjs PORT
import http from 'node:http';
import { GraphQLObjectType, GraphQLSchema, GraphQLString, GraphQLInt, GraphQLNonNull } from 'graphql';
import { createHandler } from 'graphql-sse/lib/use/http';

const port = Number(process.argv[2]);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
let counter = 0;
const schema = new GraphQLSchema({
  query: new GraphQLObjectType({
    name: 'Query',
    fields: { hello: { type: GraphQLString, resolve: () => 'world' } },
  }),
  mutation: new GraphQLObjectType({
    name: 'Mutation',
    fields: { bump: { type: GraphQLInt, resolve: () => ++counter } },
  }),
  subscription: new GraphQLObjectType({
    name: 'Subscription',
    fields: {
      greetings: {
        type: GraphQLString,
        subscribe: async function* () {
          for (const hi of ['Hi', 'Bonjour', 'Hola', 'Ciao', 'Zdravo']) {
            await sleep(200);
            yield { greetings: hi };
          }
        },
      },
      countdown: {
        type: GraphQLInt,
        args: { from: { type: new GraphQLNonNull(GraphQLInt) } },
        subscribe: async function* (_, { from }) {
          for (let i = from; i >= 0; i--) {
            await sleep(150);
            yield { countdown: i };
          }
        },
      },
    },
  }),
});

const handler = createHandler({ schema });
http
  .createServer((req, res) => {
    if (req.url.startsWith('/graphql/stream')) return handler(req, res);
    res.writeHead(404).end();
  })
  .listen(port, '127.0.0.1');
console.log(`graphql-sse on 127.0.0.1:${port}/graphql/stream`);
