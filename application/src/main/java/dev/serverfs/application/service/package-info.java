/** Application services: one {@code *Service} per use case, composed from domain policies and outbound ports. */
package dev.serverfs.application.service;
