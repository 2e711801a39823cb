import {
  ZAssignTaskRequest,
  ZCreateTaskRequest,
  ZErrorBody,
  ZGoalTasks,
  ZIdParams,
  ZShareOrgsRequest,
  ZTask,
  ZTaskListQuery,
  ZTaskShare,
  ZUpdateTaskRequest,
  ZUrgentTaskQuery,
} from '@cc/contract';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser } from '../../platform/auth/authenticate.ts';
import { preconditionOf } from '../../platform/concurrency.ts';
import type { AppContext } from '../../platform/context.ts';
import { renderListEntriesAtStart } from '../../platform/list-entries.ts';
import { rendererOf } from './tasks.list-entry.ts';
import * as tasks from './tasks.service.ts';

/** What the cached GET routes of this module read (see platform/response-cache.ts). */
const TASK_TABLES = ['tasks', 'task_shares', 'organization_members', 'organizations'];

const errors = { 400: ZErrorBody, 401: ZErrorBody, 403: ZErrorBody, 404: ZErrorBody };
const tags = ['tasks'];

export const tasksRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  // List entries the database forgot while no server ran (or rows written by other tools) are
  // rendered before serving; later ones in the background (tasks.list-entry.ts).
  renderListEntriesAtStart(app, rendererOf(ctx), 'task');
  app.get(
    '/api/tasks',
    {
      config: { cache: TASK_TABLES },
      schema: {
        tags,
        summary: 'Tasks the caller may see (created, assigned, or shared with their organizations)',
        querystring: ZTaskListQuery,
        response: { 200: z.array(ZTask), ...errors },
      },
    },
    // The page is JSON text already (stored list entries, tasks.list-entry.ts): sent as it is.
    async (req, reply) => {
      const body = await tasks.listTasksText(ctx, currentUser(req), req.query);
      // A string with a JSON content type skips the serializer (the response schema still documents it).
      return (reply as FastifyReply).type('application/json; charset=utf-8').send(body);
    },
  );

  app.get(
    '/api/tasks/urgent',
    {
      config: { cache: TASK_TABLES },
      schema: {
        tags,
        summary: 'Dashboard: open Urgent then High tasks by due date (default 3)',
        querystring: ZUrgentTaskQuery,
        response: { 200: z.array(ZTask), ...errors },
      },
    },
    async (req) => tasks.urgentTasks(ctx, currentUser(req), req.query),
  );

  app.post(
    '/api/tasks',
    {
      schema: {
        tags,
        summary: 'Create a task',
        body: ZCreateTaskRequest,
        response: { 201: ZTask, ...errors },
      },
    },
    async (req, reply) => reply.code(201).send(await tasks.createTask(ctx, currentUser(req), req.body)),
  );

  app.get(
    '/api/tasks/:id',
    { schema: { tags, summary: 'One task', params: ZIdParams, response: { 200: ZTask, ...errors } } },
    async (req) => tasks.getTask(ctx, currentUser(req), req.params.id),
  );

  app.put(
    '/api/tasks/:id',
    {
      schema: {
        tags,
        summary: 'Update a task: the fields sent (can_edit; a new assignee needs can_assign)',
        params: ZIdParams,
        body: ZUpdateTaskRequest,
        response: { 200: ZTask, ...errors },
      },
    },
    async (req) => tasks.updateTask(ctx, currentUser(req), req.params.id, req.body, preconditionOf(req)),
  );

  app.put(
    '/api/tasks/:id/assign',
    {
      schema: {
        tags,
        summary: 'Assign a task (can_assign); null unassigns',
        params: ZIdParams,
        body: ZAssignTaskRequest,
        response: { 200: ZTask, ...errors },
      },
    },
    async (req) => tasks.assignTask(ctx, currentUser(req), req.params.id, req.body, preconditionOf(req)),
  );

  app.delete(
    '/api/tasks/:id',
    {
      schema: {
        tags,
        summary: 'Delete a task (creator only)',
        params: ZIdParams,
        response: { 204: z.null(), ...errors },
      },
    },
    async (req, reply) => {
      await tasks.deleteTask(ctx, currentUser(req), req.params.id);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/api/tasks/:id/share/orgs',
    {
      schema: {
        tags,
        summary: 'Replace the organizations a task is shared with (creator only)',
        params: ZIdParams,
        body: ZShareOrgsRequest,
        response: { 200: ZTask, ...errors },
      },
    },
    async (req) => tasks.shareTask(ctx, currentUser(req), req.params.id, req.body),
  );

  app.get(
    '/api/tasks/:id/shares',
    {
      schema: {
        tags,
        summary: 'The organizations a task is shared with',
        params: ZIdParams,
        response: { 200: z.array(ZTaskShare), ...errors },
      },
    },
    async (req) => tasks.listShares(ctx, currentUser(req), req.params.id),
  );

  app.get(
    '/api/strategic-goals/:id/tasks',
    {
      schema: {
        tags: ['strategic goals'],
        summary: "The goal's open and recently done tasks that the caller may see",
        params: ZIdParams,
        response: { 200: ZGoalTasks, ...errors },
      },
    },
    async (req) => tasks.goalTasks(ctx, currentUser(req), req.params.id),
  );
};
