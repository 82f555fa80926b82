/**
 * @module engine/hosts/chat-webhook-hosts: the hosts of team-chat incoming webhooks, where a POST is a
 * message to the team's own channel. Sources: Slack, *Sending messages using incoming webhooks*
 * (https://api.slack.com/messaging/webhooks, `https://hooks.slack.com/services/…`); Microsoft Teams,
 * *Create an Incoming Webhook*
 * (https://learn.microsoft.com/microsoftteams/platform/webhooks-and-connectors/how-to/add-incoming-webhook,
 * `https://<tenant>.webhook.office.com/…`); Google Chat, *Build a Google Chat app as a webhook*
 * (https://developers.google.com/workspace/chat/quickstart/webhooks, `https://chat.googleapis.com/v1/spaces/…`);
 * Discord, *Webhook resource* (https://discord.com/developers/docs/resources/webhook,
 * `https://discord.com/api/webhooks/…`, formerly `discordapp.com`).
 */

/** A team-chat incoming-webhook host (Slack, Microsoft Teams, Google Chat, Discord). */
export const CHAT_WEBHOOK_HOST =
  /(?:^|\.)(?:hooks\.slack\.com|webhook\.office\.com|chat\.googleapis\.com)$|^(?:discord|discordapp)\.com$/;
